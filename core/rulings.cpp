#include "core/rulings.h"

#include <array>

namespace mentat {

namespace {
const std::array<RulingInfo, kNumRulings>& registry() {
  static const std::array<RulingInfo, kNumRulings> r = {{
      {RulingId::ContestedStrongholdCounts, "contested_stronghold",
       "Does a stronghold that another faction's forces also occupy count towards a stronghold victory?",
       {"alone", "shared"}, 0,
       "1.09.03 and the glossary's Control: at least one force in a territory with no other faction's forces"},
      {RulingId::BattleUnderStorm, "battle_under_storm",
       "Do forces in the same sector under storm battle?",
       {"battle", "no_battle"}, 0,
       "1.07.01.02 BATTLING BLIND against 1.01.04 OBSTRUCTION"},
      {RulingId::OrnithopterTiming, "ornithopter_timing",
       "When must a faction have forces in Arrakeen or Carthag to move three territories?",
       {"start_of_move", "start_of_turn_action"}, 0,
       "1.06.05.03-04: 'at the start of their movement' vs before the shipment of the same action"},
      {RulingId::BribeTiming, "bribe_timing",
       "When does a bribe's spice reach its recipient?",
       {"mentat_pause", "immediate"}, 0,
       "1.12 BRIBE CONSTRAINTS (in front of the shield, collected at 1.09.01)"},
      {RulingId::KaramaWindows, "karama_windows",
       "Who is asked, and when, whether to play a Karama against a faction ability?",
       {"all_other_seats", "none"}, 1,
       "3.01.11 and 1.00.05: a Karama may cancel an ability; asking only card holders would leak hands"},
      {RulingId::BgStartBasic, "bg_start_basic",
       "Where does the Bene Gesserit's starting force go in the basic game?",
       {"polar_sink", "any_territory"}, 0,
       "2.02.02 (Polar Sink) against DuneBot's any-territory reading (reference README, disagreement 11)"},
      {RulingId::StormDialersWithoutBattle, "storm_dialers_without_battle",
       "Who dials the storm when no two players have used the battle wheels yet?",
       {"nearest_storm", "previous_dialers"}, 0,
       "1.01.02 names 'the two players who last used the Battle Wheels'; 0.16 uses the markers nearest the storm"},
      {RulingId::StormOnMarker, "storm_on_marker",
       "When the storm stops on a sector holding a player marker, who is the first player?",
       {"next_player", "that_player"}, 0,
       "1.01.01 'the Player Marker the storm next approaches' (treachery.online makes that player first)"},
      {RulingId::BoughtInOrder, "bought_in_order",
       "When a card is passed by everyone, in what order do the cards left in the row go back on top of the treachery deck?",
       {"first_dealt_on_top", "last_dealt_on_top"}, 0,
       "1.04.09 'returned to the top of the Treachery Deck in the order they were dealt out'"},
      {RulingId::BgWorthlessKarama, "bg_worthless_karama",
       "When may the Bene Gesserit use a worthless card as a Karama card?",
       {"advanced_only", "always", "never"}, 0,
       "1.14.06 (advanced Karama power) and 2.02.22, which lies outside both ranges of 2.02.00 (basic 2.02.01-10, advanced 2.02.01-21)"},
      {RulingId::AllyBidSupport, "ally_bid_support",
       "Does an ally's spice back a player's bids without the ally being asked?",
       {"automatic", "off", "permission"}, 0,
       "1.10.02.05 'allies may help each other by paying some or all the cost'; permission: only up to the allowance the ally "
       "set with AllyPermission (bids), the consent reading of 'may help'"},
      {RulingId::EmperorAllyPayment, "emperor_ally_payment",
       "When the Emperor buys a card and his ally pays part of it, where does the ally's share go?",
       {"bank", "emperor"}, 0,
       "2.03.04 (another faction's payment goes to the Emperor) vs 1.04.06.03 (the buyer pays the Spice Bank), with 1.10.02.05"},
      {RulingId::KaramaBidScope, "karama_bid_scope",
       "Which winning Karama bids buy the card without paying?",
       {"any_amount_free", "only_above_spice"}, 0,
       "3.01.11.04 'Bid more spice than you have (without Revealing this card) and/or Buy a Treachery Card without paying spice for it'"},
      {RulingId::NextOpenerBasis, "next_opener_basis",
       "Who opened the bid for the previous card, the player to whose right the next card's bidding starts?",
       {"first_asked", "first_bidder"}, 0,
       "1.04.07 'to the right of the player who opened the bid for the previous card'; 1.04.06 (who opens) vs 1.04.06.02 (who bids first)"},
      {RulingId::SpiceReshuffleBasic, "spice_reshuffle_basic",
       "In the basic game, which spice discards are reshuffled into the spice deck when it runs out?",
       {"all_discards", "keep_top_territory"}, 0,
       "0.05 'reshuffled to restock the Spice deck as necessary' vs 1.13.03 (advanced: the topmost territory card of pile A stays)"},
      {RulingId::FremenExtraWorms, "fremen_extra_worms",
       "In the advanced game, which sandworms may the Fremen place: those after the first of the phase, or after the first of each discard pile?",
       {"per_phase", "per_pile"}, 0,
       "2.04.15 'all additional sandworms that appear after the first sandworm in a Spice Blow'; 1.13.02 makes two blows per phase"},
      {RulingId::RepeatedWorm, "repeated_worm",
       "When several Shai-Hulud are revealed in a row on one discard pile, does each devour the territory of the topmost territory card?",
       {"devours_again", "only_first"}, 0,
       "1.02.05 and 2.04.08 ('If Shai-Hulud appears again') vs 1.13.02.02 (a further Shai-Hulud 'is immediately discarded')"},
      {RulingId::FremenAllyProtection, "fremen_ally_protection",
       "Are the Fremen asked at each sandworm whether their ally's forces there are devoured?",
       {"ask_each_worm", "always"}, 0,
       "2.04.10 'You may decide to protect (or not protect) your allies from being devoured by sandworms'"},
      {RulingId::PlacedWormSpice, "placed_worm_spice",
       "Does a sandworm placed by the Fremen destroy the spice in its territory as well as the forces?",
       {"destroys_spice", "forces_only"}, 0,
       "2.04.15 ('Any Forces there, except yours, are devoured') vs 1.14.03 ('treated as a normal sandworm') and 1.02.05"},
      {RulingId::NexusReopen, "nexus_reopen",
       "In a Nexus, is a seat that has passed asked again when it receives a proposal or its ally breaks with it?",
       {"on_proposal_and_break", "never"}, 0,
       "1.10.01.07 'Once all players have had a chance to ally, no further Alliances can be made'"},
      {RulingId::FaceDownLeaderRevival, "face_down_leader_revival",
       "When may a leader that was killed again (face down in the Tleilaxu Tanks) be revived?",
       {"all_others_face_down", "no_face_up_in_tanks"}, 0,
       "1.05.04 'until all the player's other revivable leaders have been revived, killed, and sent to the Tleilaxu Tanks again / are unavailable'"},
      {RulingId::FremenAllyRevival, "fremen_ally_revival",
       "Is the Fremen's ally's free revival of 3 granted automatically, or only when the Fremen choose?",
       {"always", "fremen_decides"}, 0,
       "2.04.11 'At your discretion, your ally's free revival is 3'"},
      {RulingId::GuildCrossShipPayment, "guild_cross_ship_payment",
       "When the Guild's ally cross-ships (from one territory to another), who receives the payment?",
       {"guild", "bank"}, 0,
       "2.06.04 (another faction's shipment 'onto Dune' pays the Guild) vs 2.06.10 and 1.06.03.02 (shipment spice goes to the bank)"},
      {RulingId::FremenMigrationLoss, "fremen_migration_loss",
       "How many forces do the Fremen lose when they send reserves into the storm (storm migration)?",
       {"half_rounded_up_regular_first", "half_rounded_down"}, 0,
       "2.04.17 'at half loss' vs 2.04.16 'only half of them there are destroyed (rounded up)'"},
      {RulingId::AdvisorOccupancy, "advisor_occupancy",
       "Does the stronghold occupancy limit apply to Bene Gesserit advisors (advanced)?",
       {"advisors_ignore_limit", "limit_applies"}, 0,
       "2.02.12 'Advisors have no effect on the play of the other factions whatsoever' vs 1.06.03.05 / 1.06.05.09 ('Forces of two other players')"},
      {RulingId::WartimeOccupancy, "wartime_occupancy",
       "May the Bene Gesserit flip advisors to fighters in Wartime in a stronghold that already holds two other factions' forces?",
       {"limit_applies", "ignore"}, 0,
       "2.02.16 ('following occupancy limit', Take Up Arms) vs 2.02.17 (Wartime names no limit)"},
      {RulingId::SpiceDialingElite, "spice_dialing_elite",
       "In spice dialing, does one spice support one unit of the dial or one force token (an elite force worth 2 counting fully for 1 spice)?",
       {"per_unit", "per_token"}, 0,
       "1.13.04 'Each Force used in a battle is valued at its full strength if 1 spice is paid to support it' vs 2.03.08 / 2.04.18 (elite forces worth two)"},
      {RulingId::EllacaDrugDefense, "ellaca_drug_defense",
       "Which defense stops the Ellaca Drug?",
       {"poison", "projectile"}, 0,
       "3.01.06 'Weapon-Poison ... Opponent may protect their leader with a Projectile Defense'"},
      {RulingId::BattleLossesScope, "battle_losses_scope",
       "Which of the loser's forces go to the tanks: those in the battle area, or all of its forces in the territory (also those separated by the storm)?",
       {"battle_area", "whole_territory"}, 0,
       "1.07.06.05 'loses all the Forces they had in the Territory' vs 1.07.01.01 (forces separated by the storm do not battle and remain)"},
      {RulingId::AggressorOrder, "aggressor_order",
       "Must the aggressor finish its battles in one territory before fighting in another?",
       {"free", "finish_territory"}, 0,
       "1.07.02 'The Aggressor chooses the order in which they wish to fight their battles' vs 1.07.03 'for as long as they have Forces in that Territory'"},
      {RulingId::GholaEliteLimit, "ghola_elite_limit",
       "Does the one-elite-force-a-turn revival limit (Sardaukar, Fedaykin) apply to forces revived by a Tleilaxu Ghola?",
       {"no_limit", "one_per_turn"}, 0,
       "3.01.20 'up to 5 of your Forces ... You still receive your normal revivals' (an extra revival) vs 2.03.11 / 2.04.20 'Only one ... per Turn'"},
      {RulingId::EmperorKaramaEliteLimit, "emperor_karama_elite_limit",
       "Does the one-Sardaukar-a-turn revival limit apply to the Emperor's Karama revival of three forces?",
       {"one_per_turn", "no_limit"}, 0,
       "1.14.02 'revive up to three of your Forces ... for free' vs 2.03.11 'Only one Sardaukar Force can be revived per Turn'"},
      {RulingId::VoiceVsCheapHero, "voice_vs_cheap_hero",
       "When the Voice commands a seat not to play a Cheap Hero and it has no leader to play, must it still play the Cheap Hero?",
       {"lifts_obligation", "obligation_stands"}, 0,
       "2.02.06 'must comply with your command as well as they are able to' vs 1.07.04.05 (a Cheap Hero must be played when no leader is available)"},
      {RulingId::FamilyAtomicsAdvisors, "family_atomics_advisors",
       "Do Bene Gesserit advisors on or next to the Shield Wall allow the Bene Gesserit to play Family Atomics (advanced)?",
       {"fighters_only", "advisors_count"}, 0,
       "3.01.07 'if you have one or more Forces on the Shield Wall or a Territory adjacent' vs 2.02.12 (advisors have no effect on play)"},
      {RulingId::CaptureAfterTraitorWin, "capture_after_traitor_win",
       "May the Harkonnen capture or kill a leader of the loser after a battle they won by calling a traitor (advanced)?",
       {"capture", "no_capture"}, 0,
       "2.05.10.01 'After you win a battle and all effects have been resolved' vs 1.07.06.07.01 (a traitor ends the battle at once)"},
      {RulingId::GuildKaramaReship, "guild_karama_reship",
       "May a player whose off-planet shipment the Guild cancelled by Karama ship again that turn?",
       {"no", "yes"}, 0,
       "1.14.05 cancels a shipment, not an ability; 1.00.04 lets a faction retake an action only after a cancelled ability"},
      {RulingId::WinnerWorthless, "winner_worthless",
       "May the winner of a battle keep the worthless cards it played?",
       {"discarded", "may_keep"}, 0,
       "3.01.01/10/12/13/21 'You can discard it by playing it in your Battle Plan' vs 1.07.06.06 'may keep any cards that do not say Discard after use'"},
      {RulingId::GuildAllyShipmentShare, "guild_ally_shipment_share",
       "When the Guild pays part of its ally's shipment (1.10.02.06), where does the Guild's share go?",
       {"bank", "guild"}, 0,
       "2.06.04 (another faction's shipment pays the Guild) vs 1.06.03.02 (shipment spice goes to the bank): the Guild's own spice paying the Guild"},
      {RulingId::KaramaAutomaticUse, "karama_automatic_use",
       "Which occurrence of an automatic faction ability (one used without an action, e.g. 2.03.04 or 2.04.07) does a Karama prevent?",
       {"changes_outcome", "next_occasion"}, 0,
       "3.01.11.02 (a Karama prevents the use of a starred ability): an ability that applies by itself is used only where it makes a difference, or at the next occasion its rule comes up"},
      {RulingId::DealTiming, "deal_timing",
       "From when may deals and bribes be made: from the start of the turn-1 Storm phase, or only once the first storm (0.16) has been placed?",
       {"storm_phase", "after_first_storm"}, 0,
       "0.00 'No Deals or Bribes may be made before 1.01.00' vs 1.12.04 'A Deal or Bribe can not be made until after 0.16'"},
      {RulingId::FremenDefaultWin, "fremen_default_win",
       "When the Fremen win by default on the last turn (no Spacing Guild in the game), does their ally win with them?",
       {"with_ally", "alone"}, 0,
       "1.09.05 'if no one has won and the Spacing Guild is not in the game the Fremen win' vs 2.04.12 (allies win with the Fremen "
       "only in the special victory of 2.04.09) and 1.10.02.01"},
      {RulingId::PassedBidder, "passed_bidder",
       "Is a player who has passed on a card asked again when another player raises the bid?",
       {"out_for_card", "asked_after_raise"}, 0,
       "1.04.06.02 'this continues around the table until a top bid is made and all other players have passed'"},
      {RulingId::AbilityStepDeals, "ability_step_deals",
       "While a faction ability is used as a step of its own (Prescience and its answer, the Voice, the Harkonnen capture, "
       "the Guild's timing, the Fremen's and the Bene Gesserit's steps), do the other seats' deals, bribes, gifts and "
       "non-Karama card plays wait until it is complete?",
       {"wait", "open"}, 0,
       "1.00.05 and 3.05 (an ability used holds the game as a response window does). `open` is not a reading of the rules: it is "
       "the engine's behaviour before rules version 3, kept so that games recorded then replay exactly",
       3, 1},
      {RulingId::KulonOrnithopter, "kulon_ornithopter",
       "CHOAM & Richese: CHOAM plays Kulon (one extra territory of movement) while its movement is three territories by ornithopter: four, or three?",
       {"plus_one", "cap_three", "card_cap_three"}, 2,
       "reference RP-kulon-ornithopter: treachery.online adds Kulon after every other range rule (3 + 1 = 4: plus_one); "
       "cap_three keeps three as the maximum of every ornithopter movement; the seeds (RICHESE_ORNITHOPTER_ENGINE_AUDIT.md, "
       "'Provisional Kulon coexistence') keep the Ornithopter card's one-group move at its printed 'up to three' and let "
       "Kulon extend every normal range, ornithopters from Arrakeen or Carthag included (card_cap_three, the default since "
       "rules version 6; games recorded before it that name no value read plus_one)",
       6, 0, 0},
      {RulingId::GamontTarget, "gamont_target",
       "CHOAM & Richese: whose force may CHOAM's Trip to Gamont send back to its reserves?",
       {"another_faction", "any_faction"}, 0,
       "reference RP-gamont-target: the card text and DuneBot say 'another player'; treachery.online lets CHOAM pick any "
       "faction's force, its own included"},
      {RulingId::ChoamTradeLimit, "choam_trade_limit",
       "CHOAM & Richese: how often may CHOAM and its ally trade a card?",
       {"once_per_turn", "unlimited"}, 0,
       "reference RP-choam-trade-limit: treachery.online allows one trade a turn; DuneBot sets no limit"},
      {RulingId::RicheseBlackMarket, "richese_black_market",
       "CHOAM & Richese: is the Richese Black Market (a card from Richese's hand auctioned first in the Bidding phase) an "
       "advanced rule, or in every game?",
       {"advanced_only", "every_game"}, 0,
       "reference RP-black-market-basic-game: treachery.online offers it only with its advanced rule; DuneBot offers it in "
       "every game with the Richese"},
      {RulingId::RicheseBuyPayee, "richese_buy_payee",
       "CHOAM & Richese: who receives the 3 spice of the Richese special Karama purchase?",
       {"emperor", "bank"}, 0,
       "reference RP-special-karama-payee: the seeds pay the Emperor when he is in the game (the general rule for a purchased "
       "treachery card, 2.03.04), else the bank; both programs pay the bank"},
      {RulingId::RicheseBuyFullHand, "richese_buy_full_hand",
       "CHOAM & Richese: may the Richese use the special Karama purchase with a full hand (the Karama spent frees a slot)?",
       {"free_slot", "allowed"}, 0,
       "reference RP-special-karama-full-hand: the seeds leave it unresolved and guard it with a free slot before the "
       "purchase; both programs allow it"},
      {RulingId::RicheseGiftTiming, "richese_gift_timing",
       "CHOAM & Richese: when may the Richese give their ally a Richese card?",
       {"any_time", "not_during_bidding"}, 0,
       "reference RP-ally-gift-timing: the rule text (seeds) says any time, with no bidding exclusion; treachery.online "
       "does not offer it during the Bidding phase"},
      {RulingId::RicheseGiftRetry, "richese_gift_retry",
       "CHOAM & Richese: after a Karama cancelled the Richese gift of a card, may the Richese offer that card again in the "
       "same phase?",
       {"retry", "not_this_phase"}, 0,
       "seeds RICHESE_GIFT_ENGINE_AUDIT (canceled gift retry): the cancellation stops that one offer and a new offer gets a "
       "fresh response; the stricter reading keeps the older once-a-phase block"},
      {RulingId::NoFieldFaceUp, "no_field_face_up",
       "CHOAM & Richese: how long does a revealed No-Field token stay face up (unusable for the next shipment)?",
       {"until_placed", "until_revealed"}, 0,
       "seeds RICHESE_NO_FIELD_RULES (pure model contract): placing another token releases the face-up one, so only the "
       "token shipped last is barred; treachery.online and DuneBot bar the last revealed value until another is revealed"},
      {RulingId::NoFieldPool, "no_field_pool",
       "CHOAM & Richese: the highest dial of the Richese in a battle with their concealed No-Field and forces?",
       {"additive", "reserve_cap"}, 0,
       "reference RP-no-field-mixed-pool (seeds boundary 2): both programs and the seeds add the forces present to "
       "min(value, reserves); the FAQ sentence read literally caps the whole dial by the reserves"},
      {RulingId::NoFieldWorm, "no_field_worm",
       "CHOAM & Richese: a worm devours the territory of a concealed No-Field?",
       {"revealed", "ignored"}, 0,
       "reference RP-no-field-worm: the seeds and treachery.online reveal it and devour its forces; DuneBot leaves the "
       "token concealed"},
      {RulingId::NoFieldAllyZero, "no_field_ally_zero",
       "CHOAM & Richese: may the Richese's ally ship with the 0 No-Field token?",
       {"allowed", "three_or_five"}, 0,
       "reference RP-ally-no-field-zero: DuneBot offers 0, 3 and 5; treachery.online only 3 and 5; the seeds are silent"},
      {RulingId::NoFieldDestroyed, "no_field_destroyed",
       "CHOAM & Richese: a concealed No-Field destroyed (storm, worm, explosion) when the reserves hold fewer forces than "
       "its value?",
       {"capped", "shortfall_from_territory"}, 0,
       "reference RP-no-field-destroyed-reserve-cap (seeds boundary 1): both programs lose min(value, reserves); the "
       "destruction sentence without the reserve clause, read as a number of forces to lose, takes the rest from the "
       "Richese's other forces in the territory"},
      {RulingId::NoFieldPrescience, "no_field_prescience",
       "CHOAM & Richese: may the Atreides' Prescience ask the dial of a battle plan of the Richese's concealed No-Field?",
       {"no_dial", "any_element"}, 0,
       "reference RP-no-field-atreides (seeds boundary 3): treachery.online and the seeds forbid the dial; DuneBot has no "
       "restriction"},
      {RulingId::DistransSpan, "distrans_span",
       "CHOAM & Richese: Distrans is played \"other than during a bid\": how long is a bid?",
       {"lot", "no_standing_bid"}, 0,
       "reference RP-distrans-during-bidding: the seeds' bounded policy blocks it while a lot is unresolved (a card up "
       "for bid, a faction's lot from offer to payment); treachery.online allows it in the regular auction while no bid "
       "stands on the card, never in the Black Market"},
      {RulingId::DistransSelf, "distrans_self",
       "CHOAM & Richese: may Distrans give itself (the card played is the card given)?",
       {"rejected", "given"}, 0,
       "seeds RICHESE_ACQUISITION_RULES 3 and treachery.online: rejected (one card cannot be given and discarded); the "
       "other reading gives the card, which is then not discarded"},
      {RulingId::BoxFullHand, "box_full_hand",
       "CHOAM & Richese: may the Nullentropy Box be used with a full hand (the Box leaves as the card comes)?",
       {"free_slot", "exchange"}, 0,
       "reference RP-box-full-hand: the seeds guard a full hand (a free slot first); treachery.online has no capacity "
       "check. Both reject an empty pile (no card to take)"},
      {RulingId::ResidualPoisonTiming, "residual_poison_timing",
       "CHOAM & Richese: until when may Residual Poison be played in a battle?",
       {"before_plans", "until_reveal"}, 0,
       "the face (reference: before battle plans and leaders are chosen): only while the opponent's plan is not in; "
       "treachery.online: any time before the reveal, a plan already naming the leader is revoked (its owner plans "
       "again)"},
      {RulingId::SemutaTiming, "semuta_timing",
       "CHOAM & Richese: the Semuta Drug takes a card \"right after another player discards it\": when may it be played?",
       {"window", "next_action"}, 0,
       "reference richese_treachery_cards Semuta Drug (the face: right after the discard); window: the engine's reading, "
       "a response window after the discarding action asks every seat that may hold it by public facts; treachery.online: "
       "any card the last event discarded, until the next event (no window)"},
      {RulingId::OrnithopterHajr, "ornithopter_hajr",
       "CHOAM & Richese: may the Ornithopter card go with a movement other than the turn's first, and with Hajr in the same turn?",
       {"first_move_only", "any_move"}, 0,
       "seeds RICHESE_ORNITHOPTER_ENGINE_AUDIT (open question 1, Hajr and prior moves): the bounded reading plays the card "
       "with the turn's first movement and not in a turn with Hajr; treachery.online lets the card go with any movement of "
       "the turn, Hajr's included, and Hajr and the card's second group add up"},
      {RulingId::OrnithopterAdvisors, "ornithopter_advisors",
       "CHOAM & Richese: which of the Ornithopter card's modes may a group with Bene Gesserit advisors use (advisors never use "
       "ornithopters, 2.02.12)?",
       {"two_groups_only", "neither"}, 1,
       "seeds RICHESE_ORNITHOPTER_ENGINE_AUDIT (open question 3): the printed prohibition covers the ornithopter range of the "
       "one-group mode, the two-group mode is ordinary movement (two_groups_only); the stricter reading keeps advisors out of "
       "both modes (neither). The seeds keep advisors out of the card ('must not be ignored ... rather than silently "
       "treating the advisor path flag as permission'; the supported boundary is 'both printed modes for ordinary physical "
       "fighter groups'): neither, the default since rules version 7; games recorded before it that name no value read "
       "two_groups_only",
       7, 0, 0},
      {RulingId::JuiceAggressorTiming, "juice_aggressor_timing",
       "CHOAM & Richese: until when may the defender play the Juice of Sapho to be considered the aggressor of its battle?",
       {"until_resolved", "before_reveal"}, 0,
       "reference richese_treachery_cards Juice of Sapho: treachery.online allows it until the battle is resolved and "
       "DuneBot applies it at the resolution, both after the plans are revealed; the stricter reading makes the choice "
       "before the plans are revealed, as a battle plan's own cards are"},
      {RulingId::HabbanyaJuice, "habbanya_juice",
       "Advanced Stronghold Cards: the aggressor holds the Habbanya Sietch card in a battle there and the defender played the "
       "Juice of Sapho to be the aggressor: who wins a tie?",
       {"holder_wins", "defender_juice"}, 0,
       "reference RP-habbanya-juice: treachery.online gives the tie to the card's holder despite the Juice; DuneBot gives it to "
       "a defender who played the Juice, even against an aggressor holding the card"},
      {RulingId::SkillStacking, "skill_stacking",
       "Leader Skills: a plan matches more than one skill bonus (a captured skilled leader used by its captor while the "
       "captor's own skilled leader is in front of the shield): do they add up?",
       {"every_bonus", "first_bonus"}, 0,
       "reference RP-skill-stacking: DuneBot adds every matching bonus; treachery.online applies only the first match in "
       "the order Mentat, Spice Banker, Warmaster, Prana Bindu Adept, Swordmaster of Ginaz, Planetologist, Killer Medic, "
       "Master of Assassins; no printed rule limits a plan to one"},
      {RulingId::PlanetologistCheapHero, "planetologist_cheap_hero",
       "Leader Skills: may the Planetologist put a Cheap Hero in its weapon slot as its green Special?",
       {"excluded", "allowed"}, 0,
       "reference RP-planetologist-cheap-hero: the card and the seeds' contract (PLANETOLOGIST_RULES.md) exclude the Cheap "
       "Hero, as treachery.online does; DuneBot accepts any card whose type starts with Special, the Cheap Hero included"},
      {RulingId::PlanetologistExclusive, "planetologist_exclusive",
       "Leader Skills: in one movement, may the Planetologist both add 1 to the range and gather from two territories?",
       {"one_alternative", "both"}, 0,
       "reference RP-planetologist-exclusive: the card's 'either ... or', the seeds' contract and treachery.online make "
       "the two alternatives exclusive per movement; DuneBot adds 1 to the first group and still offers a second group"},
      {RulingId::NoFieldGuildCancel, "no_field_guild_cancel",
       "CHOAM & Richese: may the Guild's Karama (1.14.05) cancel a shipment made with a No-Field token?",
       {"cancelled", "not_cancellable"}, 0,
       "seeds boundary 5 (a concealed marker returned as a force): 1.14.05 cancels any off-planet shipment and names no "
       "exception, so the shipment is undone as if never made: the token back to the Richese supply still concealed, the "
       "face-up token before it face up again, an ally's forces back to its reserves, the spice refunded; the seeds' "
       "module exposes no return of a concealed marker, which reads as no cancellation of a token shipment"},
      {RulingId::ChoamSellTiming, "choam_sell_timing",
       "CHOAM & Richese: when may CHOAM sell its worthless cards (2 spice) and duplicate cards (3 spice)?",
       {"end_of_phase", "any_time"}, 0,
       "reference choam-richese.json, choam_discard_for_spice: at the end of any phase (treachery.online's sheet; DuneBot "
       "does not implement the sale); any_time (a sale whenever no window or ability step holds the game) was the "
       "engine's behaviour before rules version 4: a game recorded then that names no value reads it, and replays",
       4, 1, 1},
      {RulingId::NoFieldAllyPermission, "no_field_ally_permission",
       "CHOAM & Richese: does the Richese's ally need the Richese's permission to ship with a No-Field token?",
       {"not_needed", "richese_allows"}, 1,
       "reference choam-richese.json, the Richese's alliance No-Field: treachery.online needs the Richese's permission "
       "(richese_allows: AllyPermission.no_field, a standing consent for that alliance); DuneBot asks none. The founding "
       "document (RICHESE_NO_FIELD_RULES.md, allied shipment: 'Resolve Richese permission and payer') needs it: "
       "richese_allows, the default since rules version 7; games recorded before it that name no value read not_needed",
       7, 0, 0},
      {RulingId::BureaucratChoamIncome, "bureaucrat_choam_income",
       "CHOAM & Richese with Leader Skills: is CHOAM's half of the spice another faction pays in battle (advanced) a "
       "payment between two factions that the Bureaucrat may tax?",
       {"not_a_payment", "paid_by_the_battler"}, 0,
       "reference choam-richese.json (the Bureaucrat, CHOAM's battle income): the spice comes from the bank, so no "
       "player pays it (not_a_payment); treachery.online counts it as paid by the faction whose forces it paid for "
       "(paid_by_the_battler)"},
      {RulingId::PlanetologistNoField, "planetologist_no_field",
       "CHOAM & Richese with Leader Skills: does the Planetologist's movement band apply to a concealed No-Field marker "
       "(the +1 range, and the marker as one origin of the two-territory gather)?",
       {"as_one_force", "forces_only"}, 0,
       "the seeds' Planetologist contract (concealed No-Field ordinary range and two-origin gathering, provisional "
       "compositions): the marker moves as one force, so the band applies to it as to a force (as_one_force); the card "
       "speaks of forces, and a token is none until revealed: the marker moves with its ordinary range and is no origin of "
       "a gather (forces_only)"},
      {RulingId::PlanetologistOrnithopter, "planetologist_ornithopter",
       "CHOAM & Richese with Leader Skills: may the Planetologist's two-territory gather move with the Ornithopter card?",
       {"one_card_movement", "one_group"}, 0,
       "the seeds' Planetologist contract (physical flight table, provisional composition): the gather is one card movement "
       "(one_card_movement: in the one-group mode both groups fly up to three to one destination; in the two-groups mode a "
       "gather is one of the two movements); the card's own wording moves one group per movement, so no gather flies "
       "(one_group)"},
      {RulingId::PlanetologistMixedGather, "planetologist_mixed_gather",
       "Leader Skills with the advanced Bene Gesserit: may the Planetologist gather advisors and fighters into a territory "
       "another faction occupies where the Bene Gesserit have no forces?",
       {"take_up_arms", "refused"}, 0,
       "the seeds' Planetologist contract (mixed advisor and fighter gather, provisional composition): one stance per "
       "territory and no arrival order in the rules, so the gather arrives as fighters by taking up arms (2.02.16, its "
       "Karama window before either group moves: take_up_arms); with no order to settle the stance, such a gather is "
       "refused (refused). Empty destinations (2.02.14) and a Bene Gesserit group there (2.02.20) settle the stance under "
       "both readings"},
      {RulingId::WormsignBasic, "wormsign_basic",
       "May the Atreides look at the top card of the spice deck before anyone ships (2.01.07 Wormsign) in the basic game?",
       {"basic_and_advanced", "advanced_only"}, 0,
       "2.01.00: 'When playing Basic rules use only abilities 2.01.01 through 2.01.09': Wormsign (2.01.07) is a basic "
       "ability. advanced_only is not a reading of the rules: it is the engine's behaviour before rules version 5, kept "
       "so that basic games recorded then replay exactly",
       5, 1, 1},
      {RulingId::MovementAbilityWindow, "movement_ability_window",
       "When does a Karama window open before the Fremen move with their two-territory movement (2.04.06, 3.01.11.01)?",
       {"beyond_other_range", "beyond_one"}, 0,
       "3.01.11.01 cancels an ability as it is used: the window opens only for a move the Fremen could not make without "
       "2.04.06, counting every other range rule (ornithopters 1.06.05.04, the Planetologist's +1): beyond_other_range. "
       "beyond_one is not a reading of the rules: it is the engine's behaviour before rules version 6 (any move of two or "
       "more territories without ornithopters, the Planetologist's +1 ignored), kept so that games recorded then replay exactly",
       6, 1, 1},
      {RulingId::NoFieldShippedReveal, "no_field_shipped_reveal",
       "CHOAM & Richese: the Richese ship a No-Field token while another is on the planet; the marker on the planet is revealed "
       "first. Under no_field_face_up = until_placed, does that revealed token stay face up?",
       {"stays_face_up", "returned_unseen"}, 0,
       "RICHESE_NO_FIELD_RULES.md: 'an existing token must first be revealed', 'Revealed tokens stay faceup until another is "
       "placed' (the placement releases the token face up before the shipment; the one it revealed is the last revealed), "
       "and a reveal is public: stays_face_up. returned_unseen is not a reading of the rules: it is the engine's behaviour "
       "before rules version 6 (the revealed token went back to the supply at once, its value never shown when no forces "
       "materialised), kept so that games recorded then replay exactly",
       6, 1, 1},
      {RulingId::WinnerLosses, "winner_losses",
       "Which forces make up the losses of a battle's winner with elite forces (Sardaukar, Fedaykin) worth two?",
       {"least_worth", "regulars_first"}, 0,
       "1.07.06.06 'The winner loses only the number of Forces they dialed' with 2.03.08 / 2.04.18 (elites worth two 'in "
       "taking losses'): the split worth the least over the dial, elites kept on a tie (least_worth). regulars_first is not "
       "a reading of the rules: it is the engine's behaviour before rules version 7 (every regular force first, the elites "
       "for the rest rounded up, so a dial of 10 with 5 forces and 4 Sardaukar lost 11), kept so that games recorded then "
       "replay exactly",
       7, 1, 1},
      {RulingId::AllyBidPayer, "ally_bid_payer",
       "When an ally's spice backs a player's bid (1.10.02.05), whose spice pays for the card first?",
       {"buyer_first", "ally_first"}, 0,
       "1.10.02.05 'Allies may help each other by paying some or all the cost of each other's Treachery Card bids': the "
       "buyer pays what it can and the ally the rest (buyer_first, help where needed), or the ally's backing (its spice, or "
       "under ally_bid_support=permission the allowance it set) pays first and the buyer the rest (ally_first)",
       7, 0},
      {RulingId::KaramaBattlePrevention, "karama_battle_prevention",
       "May a Karama prevent a faction's battle ability that applies by itself (2.03.08 Sardaukar, 2.04.18 Fedaykin, 2.04.21 "
       "battle hardened) in the battle being fought, before that faction's plan is in?",
       {"current_battle", "next_battle"}, 0,
       "3.01.11.02 prevents an ability before it is used and names no battle: a Karama played in a battle of the faction, "
       "before its battle plan is in, applies to that battle (current_battle). next_battle is the engine's behaviour before "
       "rules version 7 (a prevention played once a battle has begun waits for the faction's next battle, so a battle alone "
       "in its phase could be targeted only from the phase before), kept so that games recorded then replay exactly",
       7, 1, 1},
  }};
  return r;
}
}  // namespace

std::span<const RulingInfo> ruling_registry() { return registry(); }

const RulingInfo& ruling_info(RulingId id) { return registry()[static_cast<int>(id)]; }

Rulings Rulings::defaults() {
  // Built once: every GameSetup (and so every decoded event) starts from it.
  static const Rulings kDefaults = [] {
    Rulings r;
    for (const auto& info : registry()) r.value[static_cast<int>(info.id)] = info.default_value;
    return r;
  }();
  return kDefaults;
}

Rulings Rulings::encoding_baseline() {
  Rulings r = defaults();
  for (const auto& info : registry())
    if (info.encoding_baseline >= 0) r.value[static_cast<int>(info.id)] = static_cast<uint8_t>(info.encoding_baseline);
  return r;
}

Rulings Rulings::defaults_for(uint32_t rules_version) {
  Rulings r = defaults();
  for (const auto& info : registry())
    if (info.since_rules > rules_version) r.value[static_cast<int>(info.id)] = info.legacy_value;
  return r;
}

bool Rulings::set(std::string_view key, std::string_view val, std::string* error) {
  for (const auto& info : registry()) {
    if (info.key != key) continue;
    for (size_t i = 0; i < info.values.size(); ++i) {
      if (info.values[i] == val) {
        value[static_cast<int>(info.id)] = static_cast<uint8_t>(i);
        return true;
      }
    }
    if (error) {
      *error = "ruling '" + std::string(key) + "' has no value '" + std::string(val) + "' (one of:";
      for (auto v : info.values) *error += " " + std::string(v);
      *error += ")";
    }
    return false;
  }
  if (error) *error = "unknown ruling '" + std::string(key) + "'";
  return false;
}

}  // namespace mentat

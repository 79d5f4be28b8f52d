#include "inspect/render.h"

#include <array>
#include <cmath>
#include <map>
#include <queue>

#include <fmt/format.h>

#include "core/rules/rules.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "inspect/report.h"

namespace mentat::inspect {

namespace {

constexpr double kCx = 400, kCy = 400, kInner = 55, kRing = 62;
constexpr double kPi = 3.14159265358979323846;

const char* kFactionColor[kNumFactions] = {"#2e7d32", "#6a1b9a", "#c62828", "#ef6c00", "#212121", "#1565c0",
                                           "#00838f", "#8d6e63", "#795548", "#9e9e9e", "#ad1457", "#558b2f"};

std::string esc(std::string_view t) {
  std::string out;
  for (char c : t) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Ring of each territory: distance from the Polar Sink in the territory graph.
const std::array<int, data::kNumTerritories>& rings() {
  static const auto r = [] {
    std::array<int, data::kNumTerritories> d{};
    d.fill(-1);
    std::queue<TerritoryId> q;
    d[data::polar_sink_territory()] = 0;
    q.push(data::polar_sink_territory());
    while (!q.empty()) {
      auto t = q.front();
      q.pop();
      for (int o = 0; o < data::kNumTerritories; ++o)
        if (d[o] < 0 && data::territories_adjacent(t, static_cast<TerritoryId>(o))) {
          d[o] = d[t] + 1;
          q.push(static_cast<TerritoryId>(o));
        }
    }
    return d;
  }();
  return r;
}

struct Cell {
  double r0, r1, a0, a1;  // radii and angles (radians)
};

// Pieces sharing a (sector, ring) split the ring radially.
const std::array<Cell, data::kNumLocations>& cells() {
  static const auto c = [] {
    std::array<Cell, data::kNumLocations> out{};
    std::map<std::pair<int, int>, std::vector<int>> groups;
    for (int l = 0; l < data::kNumLocations; ++l) {
      const auto& L = data::location(static_cast<LocationId>(l));
      if (L.sector < 0) continue;
      groups[{L.sector, rings()[L.territory]}].push_back(l);
    }
    for (auto& [key, ls] : groups) {
      const auto [sector, ring] = key;
      const double a0 = (sector * 20.0 - 90.0) * kPi / 180.0, a1 = ((sector + 1) * 20.0 - 90.0) * kPi / 180.0;
      const double r0 = kInner + (ring - 1) * kRing, h = kRing / static_cast<double>(ls.size());
      for (size_t i = 0; i < ls.size(); ++i) out[ls[i]] = Cell{r0 + h * i, r0 + h * (i + 1), a0, a1};
    }
    return out;
  }();
  return c;
}

std::pair<double, double> polar(double r, double a) { return {kCx + r * std::cos(a), kCy + r * std::sin(a)}; }

std::string wedge(const Cell& c) {
  auto [x0, y0] = polar(c.r0, c.a0);
  auto [x1, y1] = polar(c.r1, c.a0);
  auto [x2, y2] = polar(c.r1, c.a1);
  auto [x3, y3] = polar(c.r0, c.a1);
  return fmt::format("M{:.1f},{:.1f} L{:.1f},{:.1f} A{:.1f},{:.1f} 0 0 1 {:.1f},{:.1f} L{:.1f},{:.1f} A{:.1f},{:.1f} 0 0 0 {:.1f},{:.1f} Z",
                     x0, y0, x1, y1, c.r1, c.r1, x2, y2, x3, y3, c.r0, c.r0, x0, y0);
}

std::pair<double, double> centre(LocationId l) {
  if (data::location(l).sector < 0) return {kCx, kCy};
  const auto& c = cells()[l];
  return polar((c.r0 + c.r1) / 2, (c.a0 + c.a1) / 2);
}

}  // namespace

std::string render_board_layer() {
  std::string out = "<g id=\"board\">";
  out += fmt::format("<circle class=\"sink\" data-location=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#d7ccc8\" stroke=\"#5d4037\"><title>Polar Sink</title></circle>",
                     static_cast<int>(data::polar_sink()), kCx, kCy, kInner);
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto loc = static_cast<LocationId>(l);
    const auto& L = data::location(loc);
    if (L.sector < 0) continue;
    const auto& T = data::territory(L.territory);
    const char* fill = T.kind == data::TerritoryKind::Stronghold ? "#8d6e63"
                       : T.kind == data::TerritoryKind::Rock ? "#bcaaa4"
                       : T.kind == data::TerritoryKind::ProtectedSand ? "#ffe0b2"
                                                                      : "#ffecb3";
    out += fmt::format("<path class=\"piece\" data-location=\"{}\" d=\"{}\" fill=\"{}\" stroke=\"#795548\" stroke-width=\"0.6\"><title>{} (sector {})</title></path>",
                       l, wedge(cells()[l]), fill, esc(L.name), L.sector);
  }
  // Territory names at the middle of their pieces (strongholds larger).
  for (int t = 0; t < data::kNumTerritories; ++t) {
    const auto& T = data::territory(static_cast<TerritoryId>(t));
    if (T.kind == data::TerritoryKind::PolarSink) continue;
    double sx = 0, sy = 0;
    int n = 0;
    for (int k = 0; k < T.num_locations; ++k) {
      auto [x, y] = centre(static_cast<LocationId>(T.first_location + k));
      sx += x, sy += y, ++n;
    }
    const bool big = T.stronghold;
    out += fmt::format("<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{}\" "
                       "fill-opacity=\"0.8\" pointer-events=\"none\"{}>{}</text>",
                       sx / n, sy / n - 11, big ? 13 : 9, big ? "#3e2723" : "#5d4037", big ? " font-weight=\"bold\"" : "", esc(T.name));
  }
  out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#3e2723\">Polar Sink</text>", kCx, kCy - 22);
  for (int s = 0; s < data::kNumSectors; ++s) {
    auto [x, y] = polar(kInner + 5.3 * kRing, ((s + 0.5) * 20.0 - 90.0) * kPi / 180.0);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#5d4037\">{}</text>", x, y, s);
  }
  out += "</g>";
  return out;
}

std::string render_position_layer(const GameState& s) {
  std::string out = "<g id=\"position\">";
  // Storm.
  {
    Cell c{kInner, kInner + 5 * kRing, (s.storm_sector * 20.0 - 90.0) * kPi / 180.0, ((s.storm_sector + 1) * 20.0 - 90.0) * kPi / 180.0};
    out += fmt::format("<path id=\"storm\" d=\"{}\" fill=\"#455a64\" fill-opacity=\"0.35\"><title>storm in sector {}</title></path>", wedge(c), s.storm_sector);
  }
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto loc = static_cast<LocationId>(l);
    auto [x, y] = centre(loc);
    if (s.spice_on_board[l])
      out += fmt::format("<text class=\"spice\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" fill=\"#e65100\" stroke=\"#fff\" stroke-width=\"0.4\" font-weight=\"bold\">{}<title>{} spice in {}</title></text>",
                         x - 16, y - 3, s.spice_on_board[l], s.spice_on_board[l], esc(data::location(loc).name));
    int k = 0;
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto f = static_cast<Faction>(fi);
      if (!s.has(f)) continue;
      const int n = s.forces_in_location(f, loc);
      if (!n) continue;
      const double fx = x + (k % 3) * 19 - 12, fy = y + 4 + (k / 3) * 19;
      if (f == Faction::Richese && s.forces_at(f, loc, 1)) {  // the concealed No-Field: one unknown force (no value drawn)
        out += fmt::format("<g class=\"forces no-field\" data-faction=\"{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"9.5\" fill=\"{}\" stroke=\"#000\" stroke-dasharray=\"2,2\"/>"
                           "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{}?</text>"
                           "<title>{}: {} forces, one of them a concealed No-Field token (its value unknown) in {}</title></g>",
                           faction_key(f), fx, fy, kFactionColor[fi], fx, fy + 4.5, n, faction_name(f), n, esc(data::location(loc).name));
        ++k;
        continue;
      }
      out += fmt::format("<g class=\"forces\" data-faction=\"{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"9.5\" fill=\"{}\" stroke=\"#fff\"/>"
                         "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{}</text>"
                         "<title>{}: {} forces ({} special) in {}</title></g>",
                         faction_key(f), fx, fy, kFactionColor[fi], fx, fy + 4.5, n, faction_name(f), n, s.forces_at(f, loc, 1),
                         esc(data::location(loc).name));
      ++k;
    }
  }
  out += fmt::format("<text x=\"10\" y=\"20\" font-size=\"14\" id=\"caption\">Turn {} · {} · storm in sector {}</text>", s.turn,
                     phase_name(s.phase), s.storm_sector);
  // Player markers on the board's edge (1.01.01 storm order).
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const auto f = s.faction_at(seat);
    auto [x, y] = polar(kInner + 5 * kRing + 9, ((rules::marker_sector(s, seat) + 0.5) * 20.0 - 90.0) * kPi / 180.0);
    out += fmt::format("<g class=\"marker\" data-faction=\"{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"10\" fill=\"{}\" stroke=\"#000\"/>"
                       "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{}</text><title>{}'s player marker</title></g>",
                       faction_key(f), x, y, kFactionColor[static_cast<int>(f)], x, y + 4, faction_name(f).substr(0, 1), faction_name(f));
  }
  // Each faction's public counts: reserves, tanks, cards in hand, ally.
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const auto f = s.faction_at(seat);
    const auto& fs = s.of(f);
    const double x = 10, y = 795 + seat * 15;  // one line per faction, under the board (at most six)
    std::string line = fmt::format("{}: reserves {}+{}, tanks {}+{}, {} card{}", faction_name(f), fs.reserves[0], fs.reserves[1], fs.tanks[0],
                                   fs.tanks[1], fs.hand.n, fs.hand.n == 1 ? "" : "s");
    if (fs.ally < kNumFactions) line += ", allied with " + std::string(faction_name(static_cast<Faction>(fs.ally)));
    out += fmt::format("<g class=\"status\" data-faction=\"{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\"/>"
                       "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\">{}</text></g>",
                       faction_key(f), x + 5, y - 4, kFactionColor[static_cast<int>(f)], x + 14, y, esc(line));
  }
  // The auction: which card of the row is up for bid (face down) and the high bid.
  if (s.phase == Phase::Bidding && s.bidding.index < s.bidding.row.n) {
    std::string bid = fmt::format("card {} of {} up for bid", s.bidding.index + 1, s.bidding.row.n);
    if (s.bidding.high_bidder >= 0 && s.bidding.high_bidder < s.num_seats)
      bid += fmt::format(": high bid {} by {}", s.bidding.high_bid, faction_name(s.faction_at(s.bidding.high_bidder)));
    out += fmt::format("<text id=\"auction\" x=\"790\" y=\"20\" font-size=\"14\" text-anchor=\"end\">{}</text>", esc(bid));
  }
  if (s.winners) {
    std::string w;
    for (int i = 0; i < kNumFactions; ++i)
      if ((s.winners >> i) & 1u) w += (w.empty() ? "" : ", ") + std::string(faction_name(static_cast<Faction>(i)));
    out += fmt::format("<text id=\"winners\" x=\"{}\" y=\"{}\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" "
                       "fill=\"#1b5e20\" stroke=\"#fff\" stroke-width=\"0.6\">Winners: {} ({})</text>",
                       kCx, kCy + 8, esc(w), victory_kind_name(s.victory_kind));
  }
  out += "</g>";
  return out;
}

std::string render_panel(const GameState& s, Viewer who) {
  if (who.kind != Viewer::SeatView) return "";
  const Faction me = s.faction_at(who.seat);
  const auto& fs = s.of(me);
  std::string out = fmt::format("{} (seat {}): {} spice", faction_name(me), who.seat, fs.spice);
  out += "; hand:";
  for (int i = 0; i < fs.hand.n; ++i) out += " " + std::string(data::treachery_card(fs.hand.ids[i]).name) + (i + 1 < fs.hand.n ? "," : "");
  out += "; traitors:";
  for (int i = 0; i < fs.traitors.n; ++i) out += " " + std::string(data::leader(fs.traitors.ids[i]).name) + (i + 1 < fs.traitors.n ? "," : "");
  if (fs.prediction_turn)
    out += fmt::format("; prediction: {} on turn {}", faction_name(static_cast<Faction>(fs.prediction_faction)), fs.prediction_turn);
  return out;
}

std::string render_svg(const GameState& s, Viewer who) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 800 890\" width=\"800\" height=\"890\" font-family=\"sans-serif\">";
  out += "<rect width=\"800\" height=\"890\" fill=\"#fafafa\"/>";
  out += render_board_layer();
  out += render_position_layer(s);
  const std::string panel = render_panel(s, who);
  if (!panel.empty()) out += fmt::format("<text id=\"panel\" x=\"10\" y=\"886\" font-size=\"12\">{}</text>", esc(panel));
  out += "</svg>";
  return out;
}

std::string render_replay_html(const std::string& title, const std::vector<ReplayFrame>& frames) {
  // Valid JSON (and safe inside <script>) for any text: codec::json_quote.
  auto js_string = [](const std::string& t) { return codec::json_quote(t); };
  std::string data = "[";
  for (size_t i = 0; i < frames.size(); ++i) {
    const auto& f = frames[i];
    data += fmt::format("{}{{\"v\":{},\"s\":{},\"c\":{},\"l\":{},\"p\":{}}}", i ? "," : "", f.version, js_string(f.summary),
                        js_string(f.changes), js_string(f.layer), js_string(f.panel));
  }
  data += "]";
  std::string html = R"(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>)" + esc(title) + R"(</title>
<style>body{font-family:sans-serif;margin:8px;display:flex;gap:12px;height:calc(100vh - 16px);box-sizing:border-box}
#left{display:flex;flex-direction:column;flex:none;max-width:70vw}#svg{height:calc(100vh - 110px);width:auto;max-width:70vw}
#right{display:flex;flex-direction:column;flex:1;min-width:280px}
#log{font:11px monospace;flex:1;overflow:auto}#log div{white-space:pre}#log .cur{background:#ffe082}
#controls{margin:4px 0}#slider{width:420px}#summary{font:12px monospace}
#changes{font:11px monospace;white-space:pre;height:110px;overflow:auto;border-top:1px solid #ccc;margin-top:4px}
#msg{color:#b00020}</style></head>
<body><div id="left"><div id="controls"><input type="range" id="slider" min="0" value="0"> <span id="ver"></span> <span id="msg"></span></div>
<svg id="svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 890" font-family="sans-serif">
<rect width="800" height="890" fill="#fafafa"/>)" + render_board_layer() + R"(<g id="dyn"></g><text id="panel" x="10" y="886" font-size="12"></text></svg>
<div id="summary"></div></div><div id="right"><div id="log"></div><div id="changes"></div></div>
<script>
const F = )" + data + R"(;
const slider = document.getElementById('slider'), log = document.getElementById('log'), msg = document.getElementById('msg');
slider.max = F.length - 1;
F.forEach((f, i) => { const d = document.createElement('div'); d.textContent = f.s; d.id = 'e' + i; d.onclick = () => show(i); log.appendChild(d); });
function show(i) {
  i = Math.max(0, Math.min(F.length - 1, i));
  slider.value = i;
  document.getElementById('dyn').innerHTML = F[i].l;
  document.getElementById('panel').textContent = F[i].p;
  document.getElementById('ver').textContent = 'version ' + F[i].v + ' / ' + F[F.length - 1].v;
  document.getElementById('summary').textContent = F[i].s;
  document.getElementById('changes').textContent = F[i].c ? 'what changed:\n' + F[i].c : '';
  document.querySelectorAll('#log .cur').forEach(e => e.className = '');
  const cur = document.getElementById('e' + i); cur.className = 'cur'; cur.scrollIntoView({block: 'nearest'});
  document.body.dataset.version = F[i].v;
  if (location.hash !== '#v=' + F[i].v) history.replaceState(null, '', '#v=' + F[i].v);
}
slider.addEventListener('input', () => { msg.textContent = ''; show(+slider.value); });
document.addEventListener('keydown', e => {
  if (e.target === slider && (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'ArrowDown' ||
                              e.key === 'Home' || e.key === 'End')) return;  // the focused slider steps by itself
  if (e.key === 'ArrowRight') show(+slider.value + 1); if (e.key === 'ArrowLeft') show(+slider.value - 1);
  if (e.key === 'Home') show(0); if (e.key === 'End') show(F.length - 1); });
function follow() {
  const m = location.hash.match(/v=(\d+)/);
  if (!m) { show(+slider.value); return; }
  const want = +m[1], idx = F.findIndex(f => f.v === want);
  if (idx < 0) { msg.textContent = 'no version ' + want + ' in this replay (' + F[0].v + '..' + F[F.length - 1].v + ')'; show(+slider.value); return; }
  msg.textContent = '';
  show(idx);
}
window.addEventListener('hashchange', follow);
follow();
</script></body></html>
)";
  return html;
}

}  // namespace mentat::inspect

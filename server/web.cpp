#include "server/web.h"

#include <httplib.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include "core/engine.h"
#include "core/rulings.h"
#include "events/codec.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "server/api.h"

namespace mentat::server::web {

namespace {

using flatbuffers::Offset;

template <class T>
Answer answer(api::Builder& b, Offset<T> root, bool nulls = true) {
  b.Finish(root);
  return {200, api::print<T>(b, nulls)};
}

// ?v=N: a version >= 0, or -1 (the head) when absent.
bool version_param(const httplib::Request& req, int64_t* v) {
  *v = -1;
  if (!req.has_param("v")) return true;
  const std::string t = req.get_param_value("v");
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return c >= '0' && c <= '9'; }) || *end != '\0' || errno != 0 || x < 0)
    return false;
  *v = x;
  return true;
}

const char* content_type(const std::string& name) {
  auto ends = [&](std::string_view s) { return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0; };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".json")) return "application/json";
  if (ends(".png")) return "image/png";
  if (ends(".ico")) return "image/x-icon";
  return "application/octet-stream";
}

struct Cors {
  bool any = false;
  std::vector<std::string> origins;
  bool allows(const std::string& origin) const {
    if (origin.empty()) return false;
    if (any) return true;
    for (const auto& o : origins)
      if (o == origin) return true;
    return false;
  }
};

Cors parse_cors(const std::string& text) {
  Cors c;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item == "*") c.any = true;
    else if (!item.empty()) c.origins.push_back(item);
  }
  return c;
}

std::string prometheus(const MetricsSnapshot& m, int64_t rooms_in_store) {
  std::string out;
  auto metric = [&](const char* name, const char* type, const char* help, double value) {
    out += fmt::format("# HELP mentat_{} {}\n# TYPE mentat_{} {}\nmentat_{} {}\n", name, help, name, type, name, value);
  };
  metric("rooms_loaded", "gauge", "Rooms this process has served since it started.", static_cast<double>(m.rooms_loaded));
  metric("rooms_in_store", "gauge", "Rooms in the store.", static_cast<double>(rooms_in_store));
  metric("appends_total", "counter", "Accepted actions appended (bots included, duplicates not).", static_cast<double>(m.appends));
  metric("duplicates_total", "counter", "Resent actions answered from the store.", static_cast<double>(m.duplicates));
  metric("rejected_total", "counter", "Actions the engine refused (422).", static_cast<double>(m.rejected));
  metric("conflicts_total", "counter", "Actions based on a stale version (409).", static_cast<double>(m.conflicts));
  metric("requests_total", "counter", "HTTP requests served.", static_cast<double>(m.requests));
  metric("bot_actions_total", "counter", "Actions the server's bots stored.", static_cast<double>(m.bot_actions));
  out += "# HELP mentat_append_latency_ms store::submit time over the last 4096 appends (fsync included).\n"
         "# TYPE mentat_append_latency_ms summary\n";
  out += fmt::format("mentat_append_latency_ms{{quantile=\"0.5\"}} {}\n", m.append_p50_ms);
  out += fmt::format("mentat_append_latency_ms{{quantile=\"0.99\"}} {}\n", m.append_p99_ms);
  out += fmt::format("mentat_append_latency_ms{{quantile=\"1\"}} {}\n", m.append_max_ms);
  metric("uptime_seconds", "gauge", "Seconds since the server started.", m.uptime_s);
  return out;
}

bool wants_prometheus(const httplib::Request& req) {
  if (req.has_param("format")) return req.get_param_value("format") == "prometheus";
  const std::string accept = req.get_header_value("Accept");
  return accept.find("text/plain") != std::string::npos || accept.find("openmetrics") != std::string::npos;
}

class AccessLog {
 public:
  explicit AccessLog(const std::string& where) {
    if (where.empty()) return;
    if (where == "-") {
      out_ = stderr;
    } else {
      out_ = std::fopen(where.c_str(), "a");
      owned_ = out_ != nullptr;
      if (!out_) std::fprintf(stderr, "mentat serve: cannot open the access log %s; logging to stderr\n", where.c_str());
      if (!out_) out_ = stderr;
    }
  }
  ~AccessLog() {
    if (owned_) std::fclose(out_);
  }
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;
  bool on() const { return out_ != nullptr; }
  void write(const httplib::Request& req, const httplib::Response& res) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    // The path only: never the query, never a header (the token's place).
    std::string path;
    for (char c : req.path) path += (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == 0x7f) ? '?' : c;
    std::scoped_lock lock(mu_);
    std::fprintf(out_, "%s.%03dZ %s \"%s %s\" %d %zu\n", stamp, static_cast<int>(ms), req.remote_addr.c_str(),
                 req.method.c_str(), path.c_str(), res.status, res.body.size());
    std::fflush(out_);
  }

 private:
  std::mutex mu_;
  std::FILE* out_ = nullptr;
  bool owned_ = false;
};

}  // namespace

bool archived(store::EventStore& store, const std::string& room) {
  std::string error;
  auto v = store.get_room_secret(room, "archived", &error);
  return v && *v == "1";
}

bool deleted(store::EventStore& store, const std::string& room) {
  std::string error;
  auto v = store.get_room_secret(room, "deleted", &error);
  return v && *v == "1";
}

void install(httplib::Server& http, Host& host, store::EventStore& store, const ServerOptions& opts) {
  auto send = [](httplib::Response& res, const Answer& a, const char* type = "application/json") {
    res.status = a.status;
    res.set_content(a.body, type);
  };
  const std::string web_dir = opts.web_dir;
  const Cors cors = parse_cors(opts.cors);
  const std::string admin_token = opts.admin_token;
  auto log = std::make_shared<AccessLog>(opts.access_log);

  // ---- CORS, Prometheus ------------------------------------------------------
  http.set_pre_routing_handler([&host, cors](const httplib::Request& req, httplib::Response& res) {
    if (req.method == "OPTIONS") {
      host.count_request();
      const std::string origin = req.get_header_value("Origin");
      if (cors.allows(origin)) {
        res.set_header("Access-Control-Allow-Origin", cors.any ? "*" : origin);
        res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        res.set_header("Access-Control-Allow-Headers", "Authorization, Content-Type");
        res.set_header("Access-Control-Max-Age", "600");
        if (!cors.any) res.set_header("Vary", "Origin");
      }
      res.status = 204;
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "GET" && req.path == "/metrics" && wants_prometheus(req)) {
      host.count_request();
      res.status = 200;
      res.set_content(prometheus(host.metrics_snapshot(), host.rooms_in_store()), "text/plain; version=0.0.4; charset=utf-8");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  if (cors.any || !cors.origins.empty())
    http.set_post_routing_handler([cors](const httplib::Request& req, httplib::Response& res) {
      const std::string origin = req.get_header_value("Origin");
      if (!cors.allows(origin)) return;
      res.set_header("Access-Control-Allow-Origin", cors.any ? "*" : origin);
      if (!cors.any) res.set_header("Vary", "Origin");
    });
  if (log->on()) http.set_logger([log](const httplib::Request& req, const httplib::Response& res) { log->write(req, res); });

  // ---- static files ------------------------------------------------------------
  auto serve_file = [&host, web_dir, send](const std::string& name, httplib::Response& res) {
    host.count_request();
    std::ifstream f(web_dir + "/" + name, std::ios::binary);
    if (web_dir.empty() || !f) return send(res, host.error(404, "not_found", "no such file: " + name));
    std::stringstream ss;
    ss << f.rdbuf();
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_content(ss.str(), content_type(name));
  };
  http.Get("/", [serve_file](const httplib::Request&, httplib::Response& res) { serve_file("index.html", res); });
  http.Get(R"(/((?:[A-Za-z0-9_-]+/)?[A-Za-z0-9_-]+\.(?:html|js|mjs|css|svg|png|ico)))",
           [serve_file](const httplib::Request& req, httplib::Response& res) { serve_file(req.matches[1].str(), res); });

  // ---- the rulings (the lobby's choices) -------------------------------------
  http.Get("/rulings", [&host, send](const httplib::Request&, httplib::Response& res) {
    host.count_request();
    api::Builder b;
    std::vector<Offset<fb::RulingInfoView>> items;
    for (const auto& r : ruling_registry()) {
      std::vector<std::string> values(r.values.begin(), r.values.end());
      const std::string dflt = r.default_value < values.size() ? values[r.default_value] : std::string();
      const auto key = b.CreateString(std::string(r.key)), question = b.CreateString(std::string(r.question));
      const auto vals = b.CreateVectorOfStrings(values);
      const auto d = b.CreateString(dflt), source = b.CreateString(std::string(r.source));
      items.push_back(fb::CreateRulingInfoView(b, key, question, vals, d, source));
    }
    send(res, answer(b, fb::CreateRulingList(b, b.CreateVector(items)), false));
  });

  // ---- the modules and the factions they seat (the lobby's choices) ----------
  http.Get("/modules", [&host, send](const httplib::Request&, httplib::Response& res) {
    host.count_request();
    api::Builder b;
    auto choice = [&b](Faction f) {
      return fb::CreateFactionChoiceDirect(b, std::string(faction_key(f)).c_str(), std::string(faction_name(f)).c_str());
    };
    std::vector<Offset<fb::FactionChoice>> base;
    for (int f = 0; f < kNumBaseFactions; ++f) base.push_back(choice(static_cast<Faction>(f)));
    std::vector<Offset<fb::ModuleChoice>> modules;
    for (int i = 0; i < data::kNumModules; ++i) {
      const auto& m = data::module_info(static_cast<data::Module>(i));
      if (!m.implemented) continue;
      std::vector<Offset<fb::FactionChoice>> seated;
      for (int f = 0; f < kNumFactions; ++f)
        if ((m.factions & faction_bit(static_cast<Faction>(f))) && data::faction_rules_implemented(static_cast<Faction>(f)))
          seated.push_back(choice(static_cast<Faction>(f)));
      modules.push_back(fb::CreateModuleChoiceDirect(b, std::string(m.key).c_str(), std::string(m.name).c_str(), &seated));
    }
    send(res, answer(b, fb::CreateModuleListDirect(b, &base, &modules), false));
  });

  // ---- the board, past views, legal actions -----------------------------------
  http.Get(R"(/rooms/([^/]+)/board\.svg)", [&host, send](const httplib::Request& req, httplib::Response& res) {
    host.count_request();
    int64_t v;
    if (!version_param(req, &v)) return send(res, host.error(400, "malformed", "v must be a version >= 0"));
    std::shared_ptr<const GameState> s;
    Answer err;
    if (!host.state_at(req.matches[1].str(), v, &s, &err)) return send(res, err);
    res.set_header("Cache-Control", v < 0 ? "no-cache" : "max-age=3600");
    send(res, {200, inspect::render_svg(*s, inspect::Viewer::observer())}, "image/svg+xml");
  });
  http.Get(R"(/rooms/([^/]+)/observer)", [&host, send](const httplib::Request& req, httplib::Response& res) {
    host.count_request();
    int64_t v;
    if (!version_param(req, &v)) return send(res, host.error(400, "malformed", "v must be a version >= 0"));
    const std::string room = req.matches[1].str();
    std::shared_ptr<const GameState> s;
    Answer err;
    if (!host.state_at(room, v, &s, &err)) return send(res, err);
    const std::string bytes = inspect::build_view(*s, inspect::Viewer::observer());
    api::Builder b;
    const auto name = b.CreateString(room);
    const auto vec = b.CreateVector(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    fb::ViewResponseBuilder r(b);
    r.add_room(name);
    r.add_version(s->version);
    r.add_view(vec);
    send(res, answer(b, r.Finish()));
  });
  http.Get(R"(/rooms/([^/]+)/legal)", [&host, send](const httplib::Request& req, httplib::Response& res) {
    host.count_request();
    const std::string room = req.matches[1].str();
    Seat seat;
    Answer err;
    if (!host.seat_of(room, req.get_header_value("Authorization"), &seat, &err)) return send(res, err);
    if (seat == kNoSeat) return send(res, host.error(401, "bad_token", "legal actions need a seat token (Authorization: Bearer TOKEN)"));
    std::shared_ptr<const GameState> s;
    if (!host.state_at(room, -1, &s, &err)) return send(res, err);
    const std::vector<Action> legal = ((waiting_for(*s) >> seat) & 1u) ? legal_actions(*s, seat) : std::vector<Action>{};
    api::Builder b;
    std::vector<Offset<fb::LegalAction>> items;
    for (const auto& a : legal) {
      const auto kind = b.CreateString(std::string(action_kind_name(a.kind())));
      const auto label = b.CreateString(api::valid_utf8(inspect::action_label(*s, seat, a)));
      const auto table = codec::action_to_table(b, a, nullptr);
      const std::string_view use = inspect::karama_use_key(a);
      const auto karama = use.empty() ? Offset<flatbuffers::String>() : b.CreateString(use);
      fb::LegalActionBuilder la(b);
      la.add_kind(kind);
      la.add_label(label);
      if (!use.empty()) la.add_karama(karama);
      la.add_action_type(static_cast<fb::Action>(a.kind()));
      if (table) la.add_action(Offset<void>(table));
      items.push_back(la.Finish());
    }
    const auto name = b.CreateString(room);
    const auto vec = b.CreateVector(items);
    fb::LegalActionsBuilder r(b);
    r.add_room(name);
    r.add_version(static_cast<int64_t>(s->version));
    r.add_seat(seat);
    r.add_actions(vec);
    send(res, answer(b, r.Finish(), false));
  });

  // ---- admin -------------------------------------------------------------------
  http.Post(R"(/admin/rooms/([^/]+)/(token|bot|archive|delete))", [&host, &store, admin_token, send](
                                                               const httplib::Request& req, httplib::Response& res) {
    host.count_request();
    if (admin_token.empty()) return send(res, host.error(404, "not_found", "admin actions are off (start with --admin-token-file)"));
    const std::string auth = req.get_header_value("Authorization");
    static constexpr std::string_view kBearer = "Bearer ";
    if (auth.size() <= kBearer.size() || auth.compare(0, kBearer.size(), kBearer) != 0 ||
        !api::same_secret(std::string_view(auth).substr(kBearer.size()), admin_token))
      return send(res, host.error(401, "bad_token", "admin actions need the admin token (Authorization: Bearer TOKEN)"));
    const std::string room = req.matches[1].str(), what = req.matches[2].str();
    std::string buffer, error;
    const auto* body = api::parse<fb::AdminRequest>(req.body.empty() ? std::string("{}") : req.body, &buffer, &error);
    if (!body) return send(res, host.error(400, "malformed", error));
    auto respond = [&](const std::string& token, const std::string& bots_text, std::optional<Seat> seat) {
      api::Builder b;
      const auto name = b.CreateString(room);
      const auto tok = token.empty() ? Offset<flatbuffers::String>() : b.CreateString(token);
      const auto bt = what == "bot" ? b.CreateString(bots_text) : Offset<flatbuffers::String>();
      fb::AdminResponseBuilder r(b);
      r.add_room(name);
      if (seat) r.add_seat(*seat);
      if (!tok.IsNull()) r.add_token(tok);
      r.add_archived(archived(store, room));
      r.add_deleted(deleted(store, room));
      if (!bt.IsNull()) r.add_bots(bt);
      send(res, answer(b, r.Finish(), false));
    };
    if (what == "delete") {  // before state_at: a deleted room is 404 to everyone else
      if (!body->deleted()) return send(res, host.error(400, "malformed", "deleted must be true or false"));
      if (!store.meta(room, &error)) return send(res, error.empty() ? host.error(404, "unknown_room", "no room " + room) : host.error(500, "store", error));
      if (!host.set_deleted(room, *body->deleted(), &error)) return send(res, host.error(500, "store", error));
      return respond("", "", std::nullopt);
    }
    std::shared_ptr<const GameState> s;
    Answer err;
    if (!host.state_at(room, -1, &s, &err)) return send(res, err);
    std::string token, bots_text;
    std::optional<Seat> seat;
    if (what != "archive") {
      if (!body->seat() || *body->seat() < 0 || *body->seat() >= s->num_seats)
        return send(res, host.error(400, "malformed", fmt::format("seat must be a seat of this room (0..{})", s->num_seats - 1)));
      seat = *body->seat();
    }
    if (what == "token") {
      if (!host.reissue_token(room, *seat, &token, &error)) return send(res, host.error(500, "store", error));
    } else if (what == "bot") {
      if (!body->profile()) return send(res, host.error(400, "malformed", "profile must be easy, medium, hard, brutal or human"));
      if (!host.set_bot(room, *seat, body->profile()->str(), &bots_text, &error))
        return send(res, host.error(error.rfind("unknown", 0) == 0 ? 400 : 500, error.rfind("unknown", 0) == 0 ? "malformed" : "store", error));
    } else {
      if (!body->archived()) return send(res, host.error(400, "malformed", "archived must be true or false"));
      if (!store.put_room_secrets(room, {{"archived", *body->archived() ? "1" : "0"}}, &error))
        return send(res, host.error(500, "store", error));
      host.room_changed(room);
    }
    respond(token, bots_text, seat);
  });
}

}  // namespace mentat::server::web

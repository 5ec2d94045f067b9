// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform plugins [--json]`: the bundled plugins (reference, mutants, ...) in the plugin
// directory, with each mutant's rule (ninfer_mutant_breaks). Every library is queried through
// the isolated worker, as `run` opens it: a plugin that aborts, faults or hangs while loading
// is a line with its error, never a dead or hung `plugins`.
#include <algorithm>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"
#include "ninfer/abi/methods.hpp"
#include "ninfer/harness/baseline.hpp"

namespace ninfer::harness::cli {

namespace {

struct PluginEntry {
    std::string name, path, plugin_name, version, breaks, error;
    bool mutant = false;
    std::vector<ninfer_capability_v2> capabilities;
};

/// A registry id by name ("any" for 0, the number when unknown).
template <class Table>
std::string id_name(const Table &t, std::uint32_t id) {
    if (id == 0) return "any";
    const auto *e = abi::find_id(t, id);
    return e ? std::string(e->name) : std::to_string(id);
}

std::string format_text(std::uint32_t id) {
    if (id == 0) return "any";
    const auto *v = abi::find_format(id);
    return v ? std::string(v->name) : std::to_string(id);
}

/// A capability's method by name, as id_name spells an id ("any" for 0, the number when unknown).
std::string method_text(std::uint32_t op, std::uint32_t id) {
    if (id == 0) return "any";
    const auto name = abi::method_name(op, id);
    return name.empty() ? std::to_string(id) : std::string(name);
}

/// The compute profiles a plugin's capabilities claim, by name, in registry order.
std::vector<std::string> claimed_profiles(const PluginEntry &e) {
    std::vector<std::string> out;
    for (const auto &p : abi::kProfiles)
        for (const auto &c : e.capabilities)
            if (c.profile == p.id) {
                out.emplace_back(p.name);
                break;
            }
    return out;
}

nlohmann::ordered_json capability_json(const ninfer_capability_v2 &c) {
    return {{"op", id_name(abi::kOps, c.op)},          {"format", format_text(c.format)},
            {"format_in", format_text(c.format_in)},  {"layout", id_name(abi::kLayouts, c.layout)},
            {"method", method_text(c.op, c.method)},  {"profile", id_name(abi::kProfiles, c.profile)}};
}

/// The identity of one library, read by a worker process (harness/README.md, "Isolation").
PluginEntry inspect(const std::filesystem::path &p, const SubjectOptions &opts) {
    PluginEntry e;
    e.name = reports::untrusted_text(p.stem().string());
    e.path = reports::untrusted_text(p.string());
    e.mutant = e.name.rfind("mutant_", 0) == 0;
    const auto s = open_plugin(p.string(), opts);
    if (!s->open_error().empty()) {
        std::string why = s->open_error();
        // The line names the library already.
        if (const std::string prefix = "plugin " + p.string() + ": "; why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
        e.error = why;
        return e;
    }
    e.plugin_name = s->info().name;
    e.version = s->info().version;
    e.breaks = s->info().breaks;
    e.capabilities = s->info().capabilities;
    return e;
}

}  // namespace

void add_plugins(CLI::App &app) {
    auto *cmd = app.add_subcommand("plugins", "List the bundled plugins (name, path; for mutants the rule they break; "
                                              "the compute profiles they claim)");
    auto json = std::make_shared<bool>(false);
    auto caps = std::make_shared<bool>(false);
    cmd->add_flag("--capabilities", *caps, "also list every declared capability (op, formats, layout, method, profile)");
    auto dir = std::make_shared<std::string>();
    auto timeout_ms = std::make_shared<std::uint64_t>(10000);
    auto memory_limit_mib = std::make_shared<std::uint64_t>(0);
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->add_option("--dir", *dir, "plugin directory (default: the build tree's, else the installed one)")
        ->check(path_given("a directory path"));
    cmd->add_option("--timeout-ms", *timeout_ms,
                    "time a plugin gets to load, plus 5 s (default 10000)")
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{86400000}));
    cmd->add_option("--memory-limit-mib", *memory_limit_mib,
                    "address-space limit of each worker in MiB (default 0: none, as device plugins need)")
        ->check(digits())
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
    cmd->callback([json, caps, dir, timeout_ms, memory_limit_mib] {
        const std::filesystem::path d = dir->empty() ? bundled_plugin_dir() : std::filesystem::path(*dir);
        std::error_code ec;
        if (!std::filesystem::is_directory(d, ec))
            throw UsageError(fmt::format("plugin directory {} does not exist", d.string()));
        std::vector<std::filesystem::path> files;
        for (const auto &f : std::filesystem::directory_iterator(d, ec))
            if (f.path().extension() == ".so") files.push_back(f.path());
        std::sort(files.begin(), files.end());
        SubjectOptions opts;
        opts.call_timeout = std::chrono::milliseconds(*timeout_ms);
        opts.memory_limit_bytes = *memory_limit_mib << 20;
        opts.worker_executable = self_executable();
        std::vector<PluginEntry> entries;
        for (const auto &f : files) entries.push_back(inspect(f, opts));
        if (*json) {
            nlohmann::ordered_json j = {{"dir", reports::untrusted_text(d.string())},
                                        {"plugins", nlohmann::ordered_json::array()}};
            for (const auto &e : entries) {
                nlohmann::ordered_json p = {{"name", e.name},       {"path", e.path},
                                            {"kind", e.mutant ? "mutant" : "plugin"},
                                            {"plugin_name", e.plugin_name}, {"version", e.version}};
                if (e.mutant) p["breaks"] = e.breaks;
                if (!e.error.empty()) p["error"] = e.error;
                p["profiles"] = claimed_profiles(e);
                if (*caps) {
                    p["capabilities"] = nlohmann::ordered_json::array();
                    for (const auto &c : e.capabilities) p["capabilities"].push_back(capability_json(c));
                }
                j["plugins"].push_back(p);
            }
            std::printf("%s\n", j.dump(2).c_str());
            return;
        }
        std::printf("bundled plugins in %s:\n", reports::untrusted_text(d.string()).c_str());
        for (const auto &e : entries) {
            std::printf("  %-32s %s", e.name.c_str(), e.path.c_str());
            if (e.mutant) std::printf("  breaks %s", e.breaks.empty() ? "?" : e.breaks.c_str());
            if (!e.error.empty()) std::printf("  (%s)", e.error.c_str());
            std::string profiles;
            for (const auto &p : claimed_profiles(e)) profiles += (profiles.empty() ? "" : ", ") + p;
            if (!profiles.empty()) std::printf("  profiles %s", profiles.c_str());
            std::printf("\n");
            if (*caps)
                for (const auto &c : e.capabilities) std::printf("    %s\n", capability_text(c).c_str());
        }
        std::printf("%zu plugins\n", entries.size());
    });
}

}  // namespace ninfer::harness::cli

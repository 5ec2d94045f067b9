// SPDX-License-Identifier: Apache-2.0
// `ninfer-conform plugins [--json]`: the bundled plugins (reference, mutants, ...) in the plugin
// directory, with each mutant's rule (ninfer_mutant_breaks).
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cmd_common.hpp"

namespace ninfer::harness::cli {

namespace {

struct PluginEntry {
    std::string name, path, plugin_name, version, breaks, error;
    bool mutant = false;
};

/// Bundled plugins are ours, so reading their identity in-process is safe.
PluginEntry inspect(const std::filesystem::path &p) {
    PluginEntry e;
    e.name = p.stem().string();
    e.path = p.string();
    e.mutant = e.name.rfind("mutant_", 0) == 0;
    void *h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = ::dlerror();
        e.error = why ? why : "dlopen failed";
        return e;
    }
    if (auto *entry = reinterpret_cast<ninfer_plugin_entry_fn>(::dlsym(h, NINFER_PLUGIN_ENTRY_SYMBOL))) {
        if (const ninfer_plugin *t = entry(NINFER_ABI_VERSION)) {
            e.plugin_name = t->name ? t->name : "";
            e.version = t->version ? t->version : "";
        }
    } else {
        e.error = "no ninfer_plugin_entry";
    }
    if (auto *breaks = reinterpret_cast<const char *(*)()>(::dlsym(h, "ninfer_mutant_breaks"))) {
        const char *rule = breaks();
        e.breaks = rule ? rule : "";
    }
    ::dlclose(h);
    return e;
}

}  // namespace

void add_plugins(CLI::App &app) {
    auto *cmd = app.add_subcommand("plugins", "List the bundled plugins (name, path; for mutants the rule they break)");
    auto json = std::make_shared<bool>(false);
    auto dir = std::make_shared<std::string>();
    cmd->add_flag("--json", *json, "JSON instead of text");
    cmd->add_option("--dir", *dir, "plugin directory (default: the build tree's, else the installed one)");
    cmd->callback([json, dir] {
        const std::filesystem::path d = dir->empty() ? bundled_plugin_dir() : std::filesystem::path(*dir);
        std::error_code ec;
        if (!std::filesystem::is_directory(d, ec))
            throw UsageError(fmt::format("plugin directory {} does not exist", d.string()));
        std::vector<std::filesystem::path> files;
        for (const auto &f : std::filesystem::directory_iterator(d, ec))
            if (f.path().extension() == ".so") files.push_back(f.path());
        std::sort(files.begin(), files.end());
        std::vector<PluginEntry> entries;
        for (const auto &f : files) entries.push_back(inspect(f));
        if (*json) {
            nlohmann::ordered_json j = {{"dir", d.string()}, {"plugins", nlohmann::ordered_json::array()}};
            for (const auto &e : entries) {
                nlohmann::ordered_json p = {{"name", e.name},       {"path", e.path},
                                            {"kind", e.mutant ? "mutant" : "plugin"},
                                            {"plugin_name", e.plugin_name}, {"version", e.version}};
                if (e.mutant) p["breaks"] = e.breaks;
                if (!e.error.empty()) p["error"] = e.error;
                j["plugins"].push_back(p);
            }
            std::printf("%s\n", j.dump(2).c_str());
            return;
        }
        std::printf("bundled plugins in %s:\n", d.string().c_str());
        for (const auto &e : entries) {
            std::printf("  %-32s %s", e.name.c_str(), e.path.c_str());
            if (e.mutant) std::printf("  breaks %s", e.breaks.empty() ? "?" : e.breaks.c_str());
            if (!e.error.empty()) std::printf("  (%s)", e.error.c_str());
            std::printf("\n");
        }
        std::printf("%zu plugins\n", entries.size());
    });
}

}  // namespace ninfer::harness::cli

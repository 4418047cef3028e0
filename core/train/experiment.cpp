// Saving a lab experiment as a set of files (runs, CSVs, a JSON manifest) and reopening it.
#include "core/train/experiment.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/safetensors.hpp"
#include "core/train/run_io.hpp"

namespace peviz::train {

namespace fs = std::filesystem;

namespace {

std::string stem_of(const std::string& out) {
  const fs::path p(out);
  return p.has_extension() ? (p.parent_path() / p.stem()).string() : out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && std::equal(tail.rbegin(), tail.rend(), s.rbegin());
}

// Settings of two runs of one experiment agree on everything but the encoding and the seed.
bool same_experiment(TrainSettings a, TrainSettings b) {
  a.pe = b.pe;
  a.seed = b.seed;
  return settings_metadata(a) == settings_metadata(b);
}

std::unique_ptr<TrainRun> open_run(const std::string& path, const std::string& param) {
  try {
    return load_run(path, param);
  } catch (const ParamError& e) {
    throw ParamError(param, fs::path(path).filename().string() + ": " + e.rule);
  }
}

std::vector<std::unique_ptr<TrainRun>> open_manifest(const std::string& path, const std::string& param) {
  const nlohmann::json j = nlohmann::json::parse(read_file_bytes(path, param, std::size_t(64) << 20), nullptr, false);
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string())
    throw ParamError(param, path + " is not a peviz lab experiment (no \"format\")");
  if (j["format"] != kExperimentFormat)
    throw ParamError(param, path + " was written by another version of peviz (format " + j["format"].dump() +
                                ", this one reads " + kExperimentFormat + ")");
  if (!j.contains("runs") || !j["runs"].is_array() || j["runs"].empty())
    throw ParamError(param, path + " lists no runs");
  std::vector<std::unique_ptr<TrainRun>> runs;
  for (const nlohmann::json& r : j["runs"]) {
    if (!r.is_object() || !r.contains("file") || !r["file"].is_string())
      throw ParamError(param, path + ": a run has no \"file\"");
    const fs::path file(r["file"].get<std::string>());
    if (file.is_absolute() || file.filename() != file)
      throw ParamError(param, path + ": run file " + file.string() + " must sit beside the manifest");
    runs.push_back(open_run((fs::path(path).parent_path() / file).string(), param));
  }
  return runs;
}

}  // namespace

std::vector<TrainSettings> experiment_settings(const TrainSettings& base, const std::vector<PositionEncoding>& encodings,
                                               const std::vector<std::uint64_t>& seeds) {
  std::vector<TrainSettings> out;
  for (std::uint64_t seed : seeds)
    for (PositionEncoding pe : encodings) {
      TrainSettings s = run_settings(base, pe);
      s.seed = seed;
      out.push_back(s);
    }
  return out;
}

std::vector<std::string> experiment_file_names(const std::vector<TrainSettings>& runs, const std::string& out) {
  if (runs.size() == 1) return {out};
  std::set<PositionEncoding> encodings;
  std::set<std::uint64_t> seeds;
  for (const TrainSettings& s : runs) encodings.insert(s.pe), seeds.insert(s.seed);
  const std::string stem = stem_of(out);
  std::vector<std::string> names;
  for (const TrainSettings& s : runs) {
    std::string name = stem;
    if (encodings.size() > 1 || seeds.size() == 1) name.append("-").append(to_string(s.pe));
    if (seeds.size() > 1) name.append("-seed").append(std::to_string(s.seed));
    names.push_back(name + ".safetensors");
  }
  return names;
}

namespace {

// With several seeds: each encoding once, in the runs' order, with the file of its accuracy over its seeds,
// <stem>-<pe>-seeds-accuracy.csv. None with one seed.
std::vector<std::pair<PositionEncoding, std::string>> seeds_files(const std::vector<TrainSettings>& runs,
                                                                  const std::string& out) {
  std::set<std::uint64_t> seeds;
  for (const TrainSettings& s : runs) seeds.insert(s.seed);
  std::vector<std::pair<PositionEncoding, std::string>> files;
  if (seeds.size() < 2) return files;
  for (const TrainSettings& s : runs)
    if (std::none_of(files.begin(), files.end(), [&](const auto& f) { return f.first == s.pe; }))
      files.emplace_back(s.pe, stem_of(out) + "-" + std::string(to_string(s.pe)) + "-seeds-accuracy.csv");
  return files;
}

}  // namespace

std::vector<std::string> experiment_output_files(const std::vector<TrainSettings>& runs, const std::string& out) {
  if (runs.size() == 1) return {out};
  std::vector<std::string> files;
  for (const std::string& name : experiment_file_names(runs, out))
    files.insert(files.end(), {name, stem_of(name) + "-loss.csv", stem_of(name) + "-accuracy.csv"});
  for (const auto& [pe, file] : seeds_files(runs, out)) files.push_back(file);
  files.push_back(stem_of(out) + ".json");
  return files;
}

std::vector<std::string> save_experiment(const std::vector<const TrainRun*>& runs, const std::string& out, bool half) {
  if (runs.empty()) throw ParamError("out", "no finished lab run to save");
  std::vector<TrainSettings> settings;
  for (const TrainRun* r : runs) settings.push_back(r->settings());
  const std::vector<std::string> names = experiment_file_names(settings, out);
  std::vector<std::string> written;
  if (runs.size() == 1) {
    save_run(*runs[0], out, "out", half);
    return {out};
  }
  nlohmann::ordered_json manifest = {{"format", kExperimentFormat}, {"runs", nlohmann::ordered_json::array()}};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string base = stem_of(names[i]);
    const TrainSnapshot snap = runs[i]->snapshot();
    save_run(*runs[i], names[i], "out", half);
    write_file_atomically(base + "-loss.csv", [&](std::ostream& os) { os << loss_curve_csv(snap); }, "out");
    write_file_atomically(base + "-accuracy.csv", [&](std::ostream& os) { os << accuracy_csv(snap); }, "out");
    written.insert(written.end(), {names[i], base + "-loss.csv", base + "-accuracy.csv"});
    nlohmann::ordered_json entry = {{"file", fs::path(names[i]).filename().string()}};
    const nlohmann::ordered_json summary = run_summary_json(*runs[i]);
    for (const auto& [key, value] : summary.items()) entry[key] = value;
    entry["settings"] = settings_metadata(runs[i]->settings());
    manifest["runs"].push_back(entry);
  }
  for (const auto& [pe, file] : seeds_files(settings, out)) {
    std::vector<TrainSnapshot> seeds;
    for (const TrainRun* r : runs)
      if (r->settings().pe == pe) seeds.push_back(r->snapshot());
    write_file_atomically(file, [&](std::ostream& os) { os << seeds_accuracy_csv(seeds); }, "out");
    written.push_back(file);
  }
  const std::string manifest_path = stem_of(out) + ".json";
  write_file_atomically(manifest_path, [&](std::ostream& os) { os << manifest.dump(1) << "\n"; }, "out");
  written.push_back(manifest_path);
  return written;
}

bool is_lab_file(const std::string& path) {
  try {
    if (ends_with(path, ".json")) {
      std::ifstream is(path);
      std::string head(200, '\0');
      is.read(head.data(), std::streamsize(head.size()));
      return head.find(kExperimentFormat) != std::string::npos;
    }
    if (!ends_with(path, ".safetensors")) return false;
    const SafetensorsIndex idx = read_safetensors_index(path);
    const auto it = idx.metadata.find("format");
    return it != idx.metadata.end() && it->second.rfind("peviz-train-run", 0) == 0;
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<std::unique_ptr<TrainRun>> open_experiment(const std::string& path, const std::string& param) {
  std::vector<std::unique_ptr<TrainRun>> runs;
  if (ends_with(path, ".json"))
    runs = open_manifest(path, param);
  else
    runs.push_back(open_run(path, param));
  for (const auto& r : runs)
    if (!same_experiment(r->settings(), runs[0]->settings()))
      throw ParamError(param, path + ": the runs were trained with different settings (one experiment has one)");
  return runs;
}

}  // namespace peviz::train

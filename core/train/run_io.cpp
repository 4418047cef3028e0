// JSON / CSV of a run's results; saving and loading a run as .safetensors with its settings in __metadata__.
#include "core/train/run_io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>

#include "core/io/atomic_file.hpp"
#include "core/base/errors.hpp"
#include "core/io/float_chars.hpp"
#include "core/io/safetensors.hpp"

namespace peviz::train {

namespace {

constexpr const char* kFormat = "peviz-train-run-1";

nlohmann::json exact_match_json(const std::vector<LengthAccuracy>& acc) {
  nlohmann::json j = nlohmann::json::object();
  for (const LengthAccuracy& a : acc) j[std::to_string(a.n)] = a.exact_match ? nlohmann::json(*a.exact_match) : nullptr;
  return j;
}

std::vector<LengthAccuracy> exact_match_from_json(const nlohmann::json& j) {
  std::vector<LengthAccuracy> acc;
  for (const auto& [key, value] : j.items())
    acc.push_back({std::stoi(key), value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt});
  std::sort(acc.begin(), acc.end(), [](const auto& a, const auto& b) { return a.n < b.n; });
  return acc;
}

std::string field(const std::map<std::string, std::string>& m, const std::string& key, const std::string& param) {
  const auto it = m.find(key);
  if (it == m.end()) throw ParamError(param, "not a peviz training run: __metadata__ has no '" + key + "'");
  return it->second;
}

long long integer_field(const std::map<std::string, std::string>& m, const std::string& key, const std::string& param) {
  const std::string text = field(m, key, param);
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw ParamError(param, "__metadata__ '" + key + "' is not an integer: " + text);
  return v;
}

double real_field(const std::map<std::string, std::string>& m, const std::string& key, const std::string& param) {
  const std::string text = field(m, key, param);
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw ParamError(param, "__metadata__ '" + key + "' is not a number: " + text);
  return v;
}

// A loss curve as a JSON array of floats, each in the fewest digits that read back as the same float
// (std::to_chars): half the bytes of printing them as doubles.
std::string float_list_json(const std::vector<float>& values) {
  std::string out = "[";
  char buf[32];
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    if (!std::isfinite(values[i])) {
      out += "null";
      continue;
    }
    out.append(buf, format_shortest(buf, buf + sizeof buf, values[i]));
  }
  return out + "]";
}

// The reverse, exact (std::from_chars to float; null = NaN); ParamError on anything else.
std::vector<float> float_list_from_json(const std::string& text, const std::string& param) {
  const auto bad = [&] { return ParamError(param, "__metadata__ 'loss' is not a list of numbers"); };
  std::vector<float> out;
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p == end || *p++ != '[') throw bad();
  if (p != end && *p == ']') return (p + 1 == end) ? out : throw bad();
  for (;;) {  // value (',' value)* ']'
    float v = NAN;
    if (end - p >= 4 && std::string_view(p, 4) == "null") {
      p += 4;
    } else {
      const auto r = parse_real(p, end, v);
      if (r.ec != std::errc()) throw bad();
      p = r.ptr;
    }
    out.push_back(v);
    if (p == end) throw bad();
    const char c = *p++;
    if (c == ']' && p == end) return out;
    if (c != ',') throw bad();
  }
}

std::string shortest(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

}  // namespace

nlohmann::ordered_json run_summary_json(const TrainRun& run) {
  const TrainSnapshot s = run.snapshot();
  const TrainSettings& t = run.settings();
  nlohmann::ordered_json exact = nlohmann::ordered_json::object();  // lengths in increasing order
  for (const LengthAccuracy& a : s.accuracy)
    exact[std::to_string(a.n)] = a.exact_match ? nlohmann::ordered_json(*a.exact_match) : nullptr;
  nlohmann::ordered_json j = {{"pe", to_string(t.pe)},
          {"task", to_string(t.task)},
          {"seed", t.seed},
          {"train_max", t.train_max},
          {"params", run.parameter_count()},
          {"steps", s.step},
          {"steps_per_s", s.steps_per_s},
          {"final_loss", s.loss.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.loss.back())},
          {"exact_match", exact}};
  if (s.diverged_at > 0) j["diverged_at"] = s.diverged_at;
  if (t.length_scale != LengthScale::none) j["length_scale"] = to_string(t.length_scale);  // only when on
  if (t.nope_every != 0) j["nope_every"] = t.nope_every;
  if (t.drope_steps != 0) j["drope_steps"] = t.drope_steps;
  return j;
}

nlohmann::ordered_json run_full_json(const TrainRun& run) {
  nlohmann::ordered_json j = run_summary_json(run);
  j["settings"] = settings_metadata(run.settings());
  j["loss"] = run.snapshot().loss;
  return j;
}

std::string loss_curve_csv(const TrainSnapshot& s) {
  std::string out = "step,loss\n";
  for (std::size_t i = 0; i < s.loss.size(); ++i) out += std::to_string(i + 1) + "," + shortest(s.loss[i]) + "\n";
  return out;
}

std::string accuracy_csv(const TrainSnapshot& s) {
  std::string out = "n,exact_match\n";
  for (const LengthAccuracy& a : s.accuracy)
    out += std::to_string(a.n) + "," + (a.exact_match ? shortest(*a.exact_match) : "") + "\n";
  return out;
}

SeedsAccuracy seeds_accuracy(const std::vector<int>& lengths, const std::vector<const TrainSnapshot*>& seeds) {
  SeedsAccuracy out;
  out.mean.assign(lengths.size(), NAN);
  out.lo.assign(lengths.size(), NAN);
  out.hi.assign(lengths.size(), NAN);
  out.runs.assign(lengths.size(), 0);
  std::vector<double> sum(lengths.size(), 0.0);
  for (const TrainSnapshot* s : seeds) {
    if (!s->evaluated || s->diverged_at > 0) continue;
    ++out.evaluated;
    for (const LengthAccuracy& a : s->accuracy) {
      const auto at = std::find(lengths.begin(), lengths.end(), a.n);
      if (at == lengths.end() || !a.exact_match) continue;
      const std::size_t k = std::size_t(at - lengths.begin());
      const double v = *a.exact_match;
      out.lo[k] = out.runs[k] ? std::min(out.lo[k], v) : v;
      out.hi[k] = out.runs[k] ? std::max(out.hi[k], v) : v;
      sum[k] += v;
      ++out.runs[k];
    }
  }
  for (std::size_t k = 0; k < lengths.size(); ++k)
    if (out.runs[k]) out.mean[k] = sum[k] / out.runs[k];
  return out;
}

std::string seeds_accuracy_csv(const std::vector<TrainSnapshot>& seeds) {
  std::vector<int> lengths;
  std::vector<const TrainSnapshot*> all;
  for (const TrainSnapshot& s : seeds) {
    all.push_back(&s);
    if (lengths.empty() && s.evaluated && s.diverged_at == 0)
      for (const LengthAccuracy& a : s.accuracy) lengths.push_back(a.n);
  }
  const SeedsAccuracy acc = seeds_accuracy(lengths, all);
  std::string out = "n,mean,min,max,runs\n";
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    out += std::to_string(lengths[k]) + ",";
    out += acc.runs[k] ? shortest(acc.mean[k]) + "," + shortest(acc.lo[k]) + "," + shortest(acc.hi[k]) : std::string(",,");
    out += "," + std::to_string(acc.runs[k]) + "\n";
  }
  return out;
}

namespace {

// Every setting but position-range (which only an encoding with sampled ids writes).
std::map<std::string, std::string> classic_settings_metadata(const TrainSettings& s) {
  return {{"format", kFormat},
          {"task", std::string(to_string(s.task))},
          {"pe", std::string(to_string(s.pe))},
          {"layers", std::to_string(s.layers)},
          {"heads", std::to_string(s.heads)},
          {"d-model", std::to_string(s.d_model)},
          {"batch", std::to_string(s.batch)},
          {"steps", std::to_string(s.steps)},
          {"train-max", std::to_string(s.train_max)},
          {"test-max", std::to_string(s.test_max)},
          {"test-samples", std::to_string(s.test_samples)},
          {"seed", std::to_string(s.seed)},
          {"base", shortest(s.rope_base)},
          {"lr", shortest(s.lr)},
          {"warmup", std::to_string(s.warmup)}};
}

TrainSettings classic_settings_from_metadata(const std::map<std::string, std::string>& m, const std::string& param) {
  const std::string format = field(m, "format", param);
  if (format != kFormat && format.rfind("peviz-train-run", 0) == 0)
    throw ParamError(param, "written by another version of peviz (format " + format + ", this one reads " + kFormat + ")");
  if (format != kFormat) throw ParamError(param, "not a peviz training run (format " + format + ")");
  TrainSettings s;
  if (!parse_task(field(m, "task", param), s.task)) throw ParamError(param, "unknown task " + m.at("task"));
  if (!parse_position_encoding(field(m, "pe", param), s.pe)) throw ParamError(param, "unknown pe " + m.at("pe"));
  auto clamp_int = [&](const char* key) {
    const long long v = integer_field(m, key, param);
    if (v < -(1LL << 30) || v > (1LL << 30)) throw ParamError(param, std::string("__metadata__ '") + key + "' is out of range");
    return int(v);
  };
  s.layers = clamp_int("layers");
  s.heads = clamp_int("heads");
  s.d_model = clamp_int("d-model");
  s.batch = clamp_int("batch");
  s.steps = clamp_int("steps");
  s.train_max = clamp_int("train-max");
  s.test_max = clamp_int("test-max");
  s.test_samples = clamp_int("test-samples");
  s.warmup = clamp_int("warmup");
  s.seed = std::uint64_t(integer_field(m, "seed", param));
  s.rope_base = real_field(m, "base", param);
  s.lr = real_field(m, "lr", param);
  return s;
}

}  // namespace

// EMA and dropout are written only when on, so a run without them writes what peviz wrote before them; a file
// without them (absent = 0) reads as a run without them. With "ema" the tensors are the average of the weights.
constexpr const char* kOptionalReals[] = {"ema", "dropout"};
double& optional_real(TrainSettings& s, std::string_view key) { return key == "ema" ? s.ema_decay : s.dropout; }

std::map<std::string, std::string> settings_metadata(const TrainSettings& s) {
  std::map<std::string, std::string> m = classic_settings_metadata(s);
  if (sampler_of(s.pe) != PositionSampler::contiguous) m["position-range"] = std::to_string(s.position_range);
  TrainSettings t = s;
  for (const char* key : kOptionalReals)
    if (optional_real(t, key) != 0) m[key] = shortest(optional_real(t, key));
  if (s.length_scale != LengthScale::none) m["length-scale"] = std::string(to_string(s.length_scale));  // only when on
  if (s.nope_every != 0) m["nope-every"] = std::to_string(s.nope_every);  // only when on
  if (s.drope_steps != 0) m["drope-steps"] = std::to_string(s.drope_steps);
  return m;
}

TrainSettings settings_from_metadata(const std::map<std::string, std::string>& m, const std::string& param) {
  TrainSettings s = classic_settings_from_metadata(m, param);
  if (sampler_of(s.pe) != PositionSampler::contiguous) {
    const long long range = integer_field(m, "position-range", param);
    if (range < 0 || range > (1LL << 30)) throw ParamError(param, "__metadata__ 'position-range' is out of range");
    s.position_range = int(range);
  }
  for (const char* key : kOptionalReals)
    if (m.count(key)) optional_real(s, key) = real_field(m, key, param);
  if (const auto it = m.find("length-scale"); it != m.end() && !parse_length_scale(it->second, s.length_scale))
    throw ParamError(param, "__metadata__ 'length-scale' must be none, ssmax or logn, got '" + it->second + "'");
  if (m.count("nope-every")) {
    const long long every = integer_field(m, "nope-every", param);
    if (every < 0 || every > 64) throw ParamError(param, "__metadata__ 'nope-every' is out of range");
    s.nope_every = int(every);
  }
  if (m.count("drope-steps")) {
    const long long steps = integer_field(m, "drope-steps", param);
    if (steps < 0 || steps >= s.steps) throw ParamError(param, "__metadata__ 'drope-steps' is out of range");
    s.drope_steps = int(steps);
  }
  validate_shape(s);  // a run trained beyond peviz's own limits (the PyTorch twin) still opens for viewing
  return s;
}

void save_run(const TrainRun& run, const std::string& path, const std::string& param, bool half) {
  const std::vector<float> params = run.parameters();
  const ModelConfig c = model_config(run.settings());
  const ParamLayout layout = param_layout(c);
  std::vector<SafetensorsF32> tensors;
  for (int p = 0; p < kParamCount; ++p) {
    if (layout.size(Param(p)) == 0) continue;  // wpe / t5_bias of other encodings
    std::vector<std::uint64_t> shape;
    for (std::size_t d : param_shape(c, Param(p))) shape.push_back(d);
    tensors.push_back({std::string(param_name(Param(p))), shape,
                       std::span<const float>(params.data() + layout.offset[std::size_t(p)], layout.size(Param(p))), half});
  }
  std::map<std::string, std::string> meta = settings_metadata(run.settings());
  const TrainSnapshot s = run.snapshot();
  meta["loss"] = float_list_json(s.loss);
  meta["exact_match"] = exact_match_json(s.accuracy).dump();
  meta["steps_per_s"] = shortest(s.steps_per_s);
  meta["cancelled"] = s.cancelled ? "true" : "false";
  meta["diverged_at"] = std::to_string(s.diverged_at);
  write_safetensors(path, tensors, meta, param);
}

std::unique_ptr<TrainRun> load_run(const std::string& path, const std::string& param) {
  return run_from_bytes(read_file_bytes(path, param), param);
}

std::unique_ptr<TrainRun> run_from_bytes(std::string_view bytes, const std::string& param) {
  const SafetensorsIndex idx = parse_safetensors_index(bytes, bytes.size(), param);
  const TrainSettings s = settings_from_metadata(idx.metadata, param);
  const ModelConfig c = model_config(s);
  const ParamLayout layout = param_layout(c);
  std::vector<float> params(layout.total());
  for (int p = 0; p < kParamCount; ++p) {
    if (layout.size(Param(p)) == 0) continue;
    const std::string name(param_name(Param(p)));
    const auto it = std::find_if(idx.tensors.begin(), idx.tensors.end(), [&](const auto& t) { return t.name == name; });
    std::vector<std::uint64_t> shape;
    for (std::size_t d : param_shape(c, Param(p))) shape.push_back(d);
    if (it == idx.tensors.end() || (it->dtype != "F32" && it->dtype != "F16") || it->shape != shape)
      throw ParamError(param, "tensor '" + name + "' is missing or is not F32 / F16 of the shape the settings give");
    const char* src = bytes.data() + idx.data_start + it->begin;  // little-endian hosts only, as core/io/safetensors
    float* dst = params.data() + layout.offset[std::size_t(p)];
    if (it->dtype == "F32") {
      std::memcpy(dst, src, 4 * layout.size(Param(p)));
    } else {
      for (std::size_t i = 0; i < layout.size(Param(p)); ++i) {
        std::uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        dst[i] = half_bits_to_float(h);
      }
    }
  }
  const nlohmann::json acc = nlohmann::json::parse(field(idx.metadata, "exact_match", param), nullptr, false);
  if (!acc.is_object()) throw ParamError(param, "__metadata__ 'exact_match' is malformed");
  TrainSnapshot saved;
  saved.loss = float_list_from_json(field(idx.metadata, "loss", param), param);
  try {
    saved.accuracy = exact_match_from_json(acc);
  } catch (const std::exception&) {
    throw ParamError(param, "__metadata__ 'exact_match' has a key that is not a length");
  }
  saved.steps_per_s = real_field(idx.metadata, "steps_per_s", param);
  saved.cancelled = field(idx.metadata, "cancelled", param) == "true";
  if (idx.metadata.count("diverged_at")) {
    const long long at = integer_field(idx.metadata, "diverged_at", param);
    if (at < 0 || at > s.steps) throw ParamError(param, "__metadata__ 'diverged_at' is out of range");
    saved.diverged_at = int(at);
  }
  return std::make_unique<TrainRun>(s, params, std::move(saved));
}

}  // namespace peviz::train

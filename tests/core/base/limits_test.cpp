// The limits table: every entry is consistent, the checks refuse exactly outside it, core's validators go through
// it, and no source outside it writes a numeric range into a message.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include <catch2/catch.hpp>

#include "core/encodings/alibi.hpp"
#include "core/base/limits.hpp"
#include "core/rope/precision.hpp"
#include "core/encodings/relative_matrix.hpp"
#include "core/rope/rope.hpp"
#include "core/encodings/shaw.hpp"
#include "tests/core/param_error.hpp"

using namespace peviz;
namespace fs = std::filesystem;

namespace {

const fs::path kRepo = fs::path(__FILE__).lexically_normal().parent_path().parent_path().parent_path().parent_path();

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every entry of core/base/limits.hpp, in its order (the first test checks that none is missing).
const std::vector<const Limit*> kEntries = {
    &limits::d_model, &limits::seq_len, &limits::base, &limits::max_len, &limits::head_dim, &limits::rope_base,
    &limits::rope_position, &limits::rope_test_position, &limits::rope_test_positions, &limits::scale_position,
    &limits::scale_positions, &limits::needle_margin, &limits::needle_spread, &limits::ssmax_s, &limits::train_length,
    &limits::attn_scale, &limits::scale_max_log10, &limits::floor_scale, &limits::decay_max_distance, &limits::factor, &limits::original_len,
    &limits::target_len, &limits::beta_fast, &limits::beta_slow, &limits::low_freq_factor,
    &limits::high_freq_factor, &limits::precision_max_position, &limits::precision_points,
    &limits::export_max_distance, &limits::context_len, &limits::rotary_fraction,
    &limits::precision_max_position_log2, &limits::figure_width, &limits::figure_height,
    &limits::window_width, &limits::window_height, &limits::sidebar_width, &limits::pane_split,
    &limits::alibi_heads, &limits::alibi_seq_len, &limits::t5_shaw_seq_len, &limits::num_buckets,
    &limits::t5_max_distance, &limits::max_relative, &limits::t5_shaw_max_relative, &limits::rope_proportion, &limits::shift_position,
    &limits::shift_offset, &limits::criteria_length, &limits::criteria_length_long,
    &limits::ui_zoom, &limits::clock_head_dim, &limits::clock_speed, &limits::compare_offset, &limits::binary_positions, &limits::binary_morph,
    &limits::max_output, &limits::threads, &limits::bench_reps, &limits::window_frames, &limits::lesson_step,
    &limits::animation_frames, &limits::animation_fps,
    &limits::train_layers, &limits::train_heads, &limits::train_d_model, &limits::train_batch,
    &limits::train_steps, &limits::train_max, &limits::test_max, &limits::test_samples, &limits::learning_rate,
    &limits::warmup, &limits::position_range, &limits::train_ema, &limits::train_dropout, &limits::train_nope_every, &limits::train_drope_steps, &limits::train_threads, &limits::train_seeds, &limits::bounds_context_len,
    &limits::bounds_train_len,
    &limits::bounds_islands,
    &limits::mrope_text_before, &limits::mrope_text_after, &limits::mrope_grid_h, &limits::mrope_grid_w,
    &limits::mrope_patch_row, &limits::mrope_patch_col, &limits::mrope_max_offset};

bool inside(const Limit& l, double v, double lo, double hi) {
  return (l.min_exclusive && lo == l.min ? v > lo : v >= lo) && v <= hi;
}

// Calls f("path: ", text) for every .cpp and .hpp of core, cli and app but limits.cpp (the table's own).
template <class F>
void scan_sources(F f) {
  for (const char* folder : {"core", "cli", "app"})
    for (const auto& e : fs::recursive_directory_iterator(kRepo / folder)) {
      const std::string ext = e.path().extension().string();
      if (e.path().filename() == "limits.cpp" || (ext != ".cpp" && ext != ".hpp")) continue;
      f(fs::relative(e.path(), kRepo).string() + ": ", read_text(e.path()));
    }
}

}  // namespace

TEST_CASE("every entry of the limits table is listed here", "[limits]") {
  const std::string header = read_text(kRepo / "core" / "base" / "limits.hpp");
  std::size_t count = 0;
  for (std::size_t at = header.find("inline constexpr Limit "); at != std::string::npos;
       at = header.find("inline constexpr Limit ", at + 1))
    ++count;
  CHECK(count == kEntries.size());
}

TEST_CASE("each entry: a range, a default inside it, a window range inside it, log scale only from 0 up", "[limits]") {
  for (const Limit* l : kEntries) {
    INFO(l->name);
    CHECK(!l->name.empty());
    CHECK(l->min < l->max);
    CHECK(inside(*l, l->fallback, l->min, l->max));
    CHECK(l->window_lo() < l->window_hi());
    CHECK(l->window_lo() >= l->min);
    CHECK(l->window_hi() <= l->max);
    CHECK(inside(*l, l->fallback, l->window_lo(), l->window_hi()));
    // ImGui's logarithmic sliders take 0 as an end (they step from it to the first decade), not a sign change.
    if (l->logarithmic()) CHECK(l->window_lo() >= 0);
  }
}

TEST_CASE("the checks refuse exactly outside an entry, naming it and its range", "[limits]") {
  for (const Limit* l : kEntries) {
    INFO(l->name);
    const bool integral = l->min == std::floor(l->min) && l->max == std::floor(l->max) && l->max < 1e15;
    if (integral && l->max < 2e9 && !l->min_exclusive) {  // an exclusive minimum is a real number's
      CHECK_NOTHROW(check_int(*l, (long long)l->min));
      CHECK_NOTHROW(check_int(*l, (long long)l->max));
      CHECK(param_error_of([&] { check_int(*l, (long long)l->min - 1); }) ==
            std::string(l->name) + ": must be an integer in " + range_text(*l) + ", got " +
                std::to_string((long long)l->min - 1));
      CHECK_THROWS(check_int(*l, (long long)l->max + 1));
    }
    if (l->max < limits::kUnbounded) CHECK_THROWS(check_real(*l, std::nextafter(l->max, 2 * l->max + 1)));
    CHECK_NOTHROW(check_real(*l, l->fallback));
    CHECK_THROWS(check_real(*l, std::nan("")));
    if (l->min_exclusive) CHECK_THROWS(check_real(*l, l->min));
  }
}

TEST_CASE("ranges print as the messages show them; powers of two from 2^30 as 2^k", "[limits]") {
  CHECK(range_text(limits::head_dim) == "[2, 16384]");
  CHECK(range_text(limits::bounds_context_len) == "[1, 1048576]");
  CHECK(range_text(limits::context_len) == "[1, 2^30]");
  CHECK(range_text(limits::base) == "> 1");
  CHECK(range_text(limits::max_output) == "[1, 2^50]");
}

TEST_CASE("core's validators refuse exactly outside their entries", "[limits]") {
  auto rope = [](int head_dim) { return RopeParams{head_dim, 0, 10000.0, RopePairing::halves}; };
  CHECK_NOTHROW(validate(rope(int(limits::head_dim.min))));
  CHECK_NOTHROW(validate(rope(int(limits::head_dim.max))));
  CHECK(param_error_of([&] { validate(rope(int(limits::head_dim.min) - 2)); }).rfind("head-dim: must be an integer in [2, 16384]", 0) == 0);
  CHECK_THROWS(validate(rope(int(limits::head_dim.max) + 2)));
  CHECK_NOTHROW(validate_alibi_heads(int(limits::alibi_heads.max)));
  CHECK(param_error_of([] { validate_alibi_heads(int(limits::alibi_heads.max) + 1); }) ==
        "heads: must be an integer in [1, 4096], got 4097");
  CHECK_NOTHROW(check_length(int(limits::t5_shaw_seq_len.max), "key-len"));
  CHECK(param_error_of([] { check_length(0, "key-len"); }) == "key-len: must be an integer in [1, 65536], got 0");
  ShawParams shaw;
  shaw.query_len = shaw.key_len = 4;
  shaw.max_relative = int(limits::max_relative.max);
  CHECK_NOTHROW(validate(shaw));
  shaw.max_relative = int(limits::max_relative.min) - 1;
  CHECK(param_error_of([&] { validate(shaw); }) == "max-relative: must be an integer in [0, 65536], got -1");
  CHECK(log_spaced_positions(int(limits::precision_max_position.max), 2).back() == limits::precision_max_position.max);
  CHECK(param_error_of([] { log_spaced_positions(0, 4); }) == "max-position: must be an integer in [1, 2^30], got 0");
  CHECK(param_error_of([] { log_spaced_positions(8, int(limits::precision_points.max) + 1); }) ==
        "points: must be an integer in [1, 100000], got 100001");
}

TEST_CASE("no source outside the limits table writes a numeric range into a message", "[limits]") {
  // A refusal ("must be ...") whose string literal holds "in [<number>," or "in (<number>," types a bound again;
  // range_text() prints the table's. (Ranges of values, as "cosines in [-1, 1]", are not refusals.)
  // Help texts and messages with "<number>..<number>" type one too (the PNG format's 1..79-character keywords are
  // the format's, not peviz's).
  const std::regex typed_range(R"re("[^"\n]*must be[^"\n]*\bin [\[(]-?[0-9.]+,[^"\n]*"|"[^"\n]*\b[0-9]+\.\.[0-9][^"\n]*")re");
  std::vector<std::string> found;
  scan_sources([&](const std::string& file, const std::string& text) {
    for (auto it = std::sregex_iterator(text.begin(), text.end(), typed_range); it != std::sregex_iterator(); ++it)
      if (it->str().find("PNG text keyword") == std::string::npos) found.push_back(file + it->str());
  });
  INFO(Catch::Detail::stringify(found));
  CHECK(found.empty());
}

TEST_CASE("no source outside the limits table types a bound into a slider or a hint", "[limits]") {
  // A slider whose range is two numbers ("pairs_slider(..., 1, 256)", "SliderInt(..., 0, 100, ...)") or a hint
  // with "(<number> to <number>" types a bound again; limit_slider / page_slider / pairs_slider over a limits::
  // entry, or window_range_text(), read the table's.
  const std::regex typed_slider(
      R"re((Slider(Int|Float|Scalar)|Drag(Int|Float)|page_slider|pairs_slider)\([^;]*,\s*-?[0-9.]+f?,\s*-?[0-9.]+f?\s*[,)])re");
  const std::regex typed_hint(R"re("[^"\n]*\([0-9.e]+ to [0-9.e]+[^"\n]*")re");
  std::vector<std::string> found;
  for (const char* folder : {"app/ui", "app/model"})
    for (const auto& e : fs::recursive_directory_iterator(kRepo / folder)) {
      if (e.path().extension() != ".cpp") continue;
      const std::string text = read_text(e.path());
      for (const std::regex* r : {&typed_slider, &typed_hint})
        for (auto it = std::sregex_iterator(text.begin(), text.end(), *r); it != std::sregex_iterator(); ++it)
          found.push_back(fs::relative(e.path(), kRepo).string() + ": " + it->str());
    }
  INFO(Catch::Detail::stringify(found));
  CHECK(found.empty());
}

TEST_CASE("no source outside the limits table types a bound into a check, a clamp or a comparison message", "[limits]") {
  // check_range(v, 0.15, 0.85), "must be >= 320", std::clamp(w, 320, 16384): each types a bound the table
  // holds. Allowed: signs and counts (0 and 1 in messages) and clamps whose bounds are definitions, not
  // settings: fractions [0, 1], percentiles [0, 100], a double's significant digits [1, 17], a GIF
  // palette's colours [1, 256].
  const std::regex typed_check(R"re(check_range\([^;]*,\s*-?[0-9.e]+f?,\s*-?[0-9.e]+f?\s*\))re");
  const std::regex typed_message(R"re("[^"\n]*(must|needs?)[^"\n]*(>=?|<=?|at least|at most)\s*-?([2-9]|[0-9.]{2,})[^"\n]*")re");
  const std::regex typed_clamp(R"re(std::clamp\([^;]*,\s*(-?[0-9.e]+)f?,\s*(-?[0-9.e]+)f?\))re");
  const std::set<std::pair<std::string, std::string>> definitions = {
      {"0", "1"}, {"0.0", "1.0"}, {"0", "100"}, {"0.0", "100.0"}, {"1", "17"}, {"1", "256"}};
  std::vector<std::string> found;
  scan_sources([&](const std::string& file, const std::string& text) {
    for (const std::regex* r : {&typed_check, &typed_message})
      for (auto it = std::sregex_iterator(text.begin(), text.end(), *r); it != std::sregex_iterator(); ++it)
        found.push_back(file + it->str());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), typed_clamp); it != std::sregex_iterator(); ++it)
      if (!definitions.count({(*it)[1].str(), (*it)[2].str()})) found.push_back(file + it->str());
  });
  INFO(Catch::Detail::stringify(found));
  CHECK(found.empty());
}

// Tests for app/analysis_update: each page's cached results against closed forms, loading learned
// tables (good and corrupt files), the status line, the clock animation and the heads grid.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include <nlohmann/json.hpp>

#include "app/model/page_model.hpp"
#include "app/model/analysis_update.hpp"
#include "app/model/app_update.hpp"
#include "app/model/state_check.hpp"

using namespace peviz;
using namespace peviz::app;
namespace fs = std::filesystem;

namespace {

void show(AppState& s, Page p) {
  s.analysis.page = p;
  update_app_state(s);
}

std::string le(std::uint64_t v, int n) {
  std::string s(std::size_t(n), '\0');
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  return s;
}

// rows x cols F32 table named `name` (value r + c/100), plus a 1-D tensor before it.
std::string write_safetensors(const std::string& file, const std::string& name, int rows, int cols) {
  std::string data = le(0, 4);  // "bias" [1] F32
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) data += le(std::bit_cast<std::uint32_t>(float(r) + float(c) / 100.0f), 4);
  const nlohmann::json h = {{"bias", {{"dtype", "F32"}, {"shape", {1}}, {"data_offsets", {0, 4}}}},
                            {name, {{"dtype", "F32"}, {"shape", {rows, cols}}, {"data_offsets", {4, data.size()}}}}};
  const std::string path = unique_temp_path(file);
  std::ofstream(path, std::ios::binary) << le(h.dump().size(), 8) << h.dump() << data;
  return path;
}

}  // namespace

TEST_CASE("RoPE clocks: angles are t * theta mod 2 pi, pairs follow the pairing, animation advances t") {
  AppState s;
  s.analysis.rope_clocks.position = 10.0;
  show(s, Page::rope_clocks);
  const RopeClocksOptions& o = s.analysis.rope_clocks;
  REQUIRE(o.angles.size() == 32);
  CHECK(o.angles[0] == Approx(10.0 - 2 * std::numbers::pi));
  CHECK(o.angles[1] == Approx(10.0 * std::pow(10000.0, -2.0 / 64.0) - 2 * std::numbers::pi));
  REQUIRE(o.channel_b.size() > 3);
  CHECK(o.channel_b[3] == 3 + 32);  // halves
  s.analysis.rope_clocks.rope.pairing = RopePairing::interleaved;
  s.analysis.rope_clocks.animate = true;
  s.analysis.rope_clocks.speed = 4.0f;
  s.last_frame_ms = 500.0;  // animation step capped at 0.1 s
  update_app_state(s);
  CHECK(o.channel_b[3] == 7);
  CHECK(o.position == Approx(10.4));
  CHECK(o.angles[0] == Approx(10.4 - 2 * std::numbers::pi));
}

// The speed slider took any typed value (Ctrl+click, no clamp): a negative speed ran t below 0, a state the
// session refuses. The slider clamps now, and the animation never goes below t = 0.
TEST_CASE("RoPE clocks: the animation keeps t >= 0 whatever the speed") {
  AppState s;
  s.analysis.rope_clocks.position = 0.05;
  s.analysis.rope_clocks.animate = true;
  s.analysis.rope_clocks.speed = -5.0f;
  s.last_frame_ms = 100.0;
  show(s, Page::rope_clocks);
  update_app_state(s);
  CHECK(s.analysis.rope_clocks.position == 0.0);
  CHECK(check_state(s) == "");
}

TEST_CASE("RoPE decay: the score starts at 1, the bound at RoFormer's 32.5; both match the README figures") {
  AppState s;
  show(s, Page::rope_decay);
  const RopeDecayOptions& o = s.analysis.rope_decay;
  REQUIRE(o.score.size() > 2);
  CHECK(o.score[0][0] == 1.0f);
  CHECK(o.score[0][10] * 128 == Approx(85.6).margin(0.05));   // RoFormer score, base 10000
  CHECK(o.score[0][1000] * 128 == Approx(20.4).margin(0.05));
  REQUIRE(o.bound.size() > 0);
  CHECK(o.bound[0][0] == Approx(32.5));  // (R/2 + 1) / 2 for R = 128: RoFormer's units
  CHECK(o.bound[0][10] == Approx(18.0).margin(0.05));
  CHECK(o.score[2][1000] > o.score[0][1000]);  // a larger base decays more slowly at r = 1000
}

TEST_CASE("context extension, ALiBi grid, T5/Shaw and the distance chart") {
  AppState s;
  show(s, Page::context_extension);
  REQUIRE(s.analysis.context_extension.result.rows.size() > 4);
  CHECK(s.analysis.context_extension.result.rows[4].pairs_beyond_target == 25);  // Llama-3.1 preset
  REQUIRE(s.analysis.context_extension.log10_wavelength.size() > 0);
  CHECK(s.analysis.context_extension.log10_wavelength[0][0] == Approx(std::log10(2 * std::numbers::pi)));

  show(s, Page::alibi);
  const AlibiOptions& a = s.analysis.alibi;
  REQUIRE(a.slopes.size() > 0);
  CHECK(a.slopes[0] == 0.5);
  CHECK(a.grid_cols == 3);
  REQUIRE(a.grid.rows == 3 * 64 + 2);
  CHECK(a.grid.at(10, 2) == Approx(-0.5 * 8));          // head 0, query 10, key 2
  CHECK(std::isnan(a.grid.at(64, 0)));                   // the gutter
  CHECK(a.grid.at(65 + 10, 65 + 2) == Approx(-std::exp2(-8.0 * 5 / 8) * 8));  // head 4 (m = 2^-5): row 1, column 1
  CHECK(std::isnan(a.head_bias.at(0, 1)));               // causal: the future is masked
  CHECK(a.head_image.nan_meaning == plot::NanMeaning::masked);  // ... and drawn and named so, not as missing data
  CHECK(a.grid_image.nan_meaning == plot::NanMeaning::masked);
  CHECK(a.grid_image.tile_side == 64);  // the hover names head, query and key within each tile
  CHECK(a.grid_image.tiles_across == 3);
  CHECK(a.grid_image.tile_count == 8);
  s.analysis.alibi.per_head_scale = true;  // each head divided by its own largest |bias|, m_h (L - 1)
  s.analysis.mark(Page::alibi);
  show(s, Page::alibi);
  CHECK(a.grid.at(10, 2) == Approx(-8.0 / 63));                // head 0: distance 8 of 63
  CHECK(a.grid.at(65 + 63, 65 + 0) == Approx(-1.0));           // head 4, its farthest key: -1 whatever its slope
  CHECK(a.grid_image.vmin == Approx(-1.0));
  s.analysis.alibi.per_head_scale = false;

  show(s, Page::t5_shaw);
  const T5ShawOptions& t = s.analysis.t5_shaw;
  CHECK(t.buckets.at(0, 8) == 16 + 8);  // bidirectional, r = 8: past the exact range of 8
  CHECK(t.shaw.at(0, 63) == 8.0f);
  REQUIRE(t.bucket_of_distance.size() > 63);
  CHECK(t.bucket_of_distance[63] == 0.0f);  // r = 0
  CHECK(t.buckets_image.colormap == plot::Colormap::viridis);  // ordered ids: a sequential palette
  CHECK(t.shaw_image.colormap == plot::Colormap::diverging);   // signed distances: diverging around 0

  show(s, Page::distance_chart);
  const DistanceChartOptions& d = s.analysis.distance_chart;
  REQUIRE(d.series.names.size() == 2 + 8 + 2);
  CHECK(d.normalised.at(0, 127) == Approx(1.0f));  // sinusoidal at r = 0
  REQUIRE(d.shown.size() > 3);
  CHECK(d.shown[0]);
  CHECK_FALSE(d.shown[3]);  // alibi_h1 off by default
}

TEST_CASE("linear shift: the identity holds to float32 rounding; criteria cover every encoding") {
  AppState s;
  show(s, Page::linear_shift);
  const LinearShiftOptions& o = s.analysis.linear_shift;
  REQUIRE(o.shifted.size() == 128);
  CHECK(o.max_error_here < 1e-6);
  CHECK(o.max_error_all_p < 1e-6);
  CHECK(o.rk.at(0, 0) == Approx(std::cos(5.0)));  // k = 5, pair 0 has w = 1
  CHECK(o.rk.at(0, 2) == 0.0f);                    // block-diagonal

  show(s, Page::criteria);
  const CriteriaOptions& c = s.analysis.criteria;
  REQUIRE(c.reports.size() > 4);
  CHECK(c.reports[0].unique);
  CHECK(c.reports[0].bounded);
  CHECK_FALSE(c.reports[3].consistent);  // t/(L-1): the offset's meaning changes with L
  CHECK_FALSE(c.reports[4].bounded);     // integer t grows without bound
  CHECK(c.reports[4].growth == Approx(4.0).margin(0.05));
  REQUIRE(c.normalized_a.size() > 63);
  CHECK(c.normalized_a[63] == 1.0f);

  s.params.encoding = Encoding::binary;  // a sidebar change re-marks the dependent pages
  mark_params_changed(s);
  show(s, Page::linear_shift);
  CHECK_FALSE(s.analysis.linear_shift.sinusoidal);
}

TEST_CASE("precision: fp16 has no phase past 65504, the marks sit at 2^p") {
  AppState s;
  show(s, Page::precision);
  const PrecisionOptions& o = s.analysis.precision;
  REQUIRE(o.error[2].size() == 161);
  CHECK(std::isnan(o.error[2][8 * 17]));       // t = 2^17 overflows fp16
  CHECK(o.error[0][8 * 16] < 0.002);           // fp32 at 65536
  REQUIRE(o.indistinguishable.size() > 1);
  CHECK(o.indistinguishable[1] == 256.0);
}

TEST_CASE("learned tables: safetensors and npy load, past-the-table rows are NaN, bad files reach the status") {
  AppState s;
  const std::string good = write_safetensors("peviz-app-good.safetensors", "transformer.wpe.weight", 40, 6);
  s.analysis.learned.pending_drop = good;
  s.params.seq_len = 50;
  update_app_state(s);
  CHECK(s.analysis.page == Page::learned);
  CHECK(s.params.learned_source == "safetensors:transformer.wpe.weight");
  REQUIRE(s.has_results);
  CHECK(s.encoding.cols == 6);
  CHECK(s.encoding.at(39, 5) == 39.05f);
  CHECK(std::isnan(s.encoding.at(40, 0)));
  REQUIRE(s.analysis.learned.row_norm.size() == 50);
  CHECK(std::isnan(s.analysis.learned.row_norm[45]));
  CHECK_FALSE(s.status_is_error);

  // Truncated: refused, the previous table stays, the status line says why.
  fs::resize_file(good, fs::file_size(good) - 8);
  s.analysis.learned.pending_drop = good;
  update_app_state(s);
  CHECK(s.status_is_error);
  CHECK(s.status.find("from-safetensors") != std::string::npos);
  CHECK(s.encoding.at(39, 5) == 39.05f);
  fs::remove(good);

  s.analysis.learned.pending_drop = "/nonexistent/table.npy";
  update_app_state(s);
  CHECK(s.status.find("from-npy: cannot open") != std::string::npos);
}

TEST_CASE("tile_heads lays heads out row-major with NaN gutters") {
  Matrix stacked(3 * 2, 2);
  for (std::size_t i = 0; i < stacked.data.size(); ++i) stacked.data[i] = float(i);
  const Matrix g = tile_heads(stacked, 3, 2, 2);
  REQUIRE(g.rows == 5);
  REQUIRE(g.cols == 5);
  CHECK(g.at(0, 0) == 0.0f);
  CHECK(g.at(0, 3) == 4.0f);   // head 1 starts at column 3
  CHECK(g.at(3, 0) == 8.0f);   // head 2 on the second row
  CHECK(std::isnan(g.at(2, 2)));
  CHECK(std::isnan(g.at(4, 4)));  // the empty fourth tile
}

TEST_CASE("page names parse both ways") {
  for (int i = 0; i < kPageCount; ++i) CHECK(parse_page(page_name(Page(i))) == Page(i));
  CHECK_FALSE(parse_page("nope"));
  CHECK(page_names().find("context-extension") != std::string::npos);
}

// The shipped lab experiments: each opens from its preset (and the default one before anything ran), and its
// float16 weights, evaluated again, give the exact match training printed.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <tuple>

#include <catch2/catch.hpp>

#include "app/model/app_update.hpp"
#include "app/model/data_files.hpp"
#include "app/model/page_model.hpp"
#include "app/model/presets.hpp"
#include "app/model/state_json.hpp"
#include "core/train/experiment.hpp"
#include "core/train/run_queue.hpp"

using namespace peviz;
using namespace peviz::app;
using train::PositionEncoding;

namespace {

// Applies the shipped preset `name` and runs one update step.
void open_preset(AppState& s, const char* name) {
  const std::vector<PresetEntry> presets = list_presets(find_data_dir("assets/presets"), {});
  const PresetEntry* preset = find_preset(presets, name);
  REQUIRE(preset);
  REQUIRE(apply_preset(*preset, s));
  update_app_state(s);
}

// Re-measured from the stored float16 weights, run i's exact match at the lengths `checked` picks is what training
// printed, to within a few of 200 test sequences (float16 rounding can flip an argmax near a tie).
void check_measured_again(const LabOptions& o, std::size_t i, const std::function<bool(int)>& checked) {
  const train::TrainRun* run = o.runs->run(i);
  REQUIRE(run);
  const train::TrainSnapshot printed = run->snapshot();
  std::unique_ptr<train::TrainRun> again = std::move(train::open_experiment(o.opened_from)[i]);
  again->evaluate();
  const train::TrainSnapshot measured = again->snapshot();
  REQUIRE(measured.accuracy.size() == printed.accuracy.size());
  for (std::size_t k = 0; k < printed.accuracy.size(); ++k)
    if (checked(printed.accuracy[k].n)) {
      INFO(train::to_string(run->settings().pe) << " n=" << printed.accuracy[k].n);
      CHECK(*measured.accuracy[k].exact_match == Approx(*printed.accuracy[k].exact_match).margin(0.02));
    }
}

}  // namespace

TEST_CASE("the shipped experiment opens from the preset and before anything ran; its float16 weights give its numbers") {
  AppState s;
  open_preset(s, "lab-pretrained");
  const LabOptions& o = s.pages.lab;
  CHECK(o.opened_shipped == kDefaultExperiment);
  CHECK_FALSE(lab_training(o));
  REQUIRE(o.views.size() == 18);  // six encodings x seeds 0, 1, 2
  CHECK(o.settings.layers == train::TrainSettings{}.layers);  // the defaults
  CHECK(o.settings.d_model == train::TrainSettings{}.d_model);
  REQUIRE(o.series.size() == 6);
  for (const LabSeries& sr : o.series) CHECK(sr.evaluated == 3);
  CHECK(state_to_json(s)["lab"]["experiment"] == kDefaultExperiment);

  // NoPE and RoPE of seed 0, at the longest training length and the first beyond it.
  for (std::size_t i : {std::size_t(0), std::size_t(3)}) {
    const int train_max = o.runs->settings(i).train_max;
    check_measured_again(o, i, [&](int n) { return n == train_max || n == train_max + 5; });
  }

  AppState fresh;  // nothing trained or opened: the Lab page shows the same experiment
  fresh.pages.page = Page::lab;
  fresh.pages.mark(Page::lab);
  update_app_state(fresh);
  CHECK(fresh.pages.lab.opened_shipped == kDefaultExperiment);
  CHECK(fresh.pages.lab.views.size() == 18);
}

TEST_CASE("the fixes' shipped experiment opens from its preset: RoPE, coupled-rope, FIRE and rand-rope; float16 gives the numbers") {
  AppState s;
  open_preset(s, "lab-fixes-pretrained");
  const LabOptions& o = s.pages.lab;
  CHECK(o.opened_shipped == "fixes-copy");
  CHECK_FALSE(lab_training(o));
  REQUIRE(o.views.size() == 12);  // four encodings x seeds 0, 1, 2
  REQUIRE(o.series.size() == 4);
  const auto series_of = [&](PositionEncoding pe) -> const LabSeries& {
    const auto it = std::find_if(o.series.begin(), o.series.end(), [&](const LabSeries& sr) { return sr.pe == pe; });
    REQUIRE(it != o.series.end());
    return *it;
  };
  for (const LabSeries& sr : o.series) CHECK(sr.evaluated == 3);
  // Past the training length the fixes answer where RoPE does not (the seed means at n = 25, from the files).
  const std::size_t at25 = std::size_t(std::find(o.lengths.begin(), o.lengths.end(), 25) - o.lengths.begin());
  REQUIRE(at25 < o.lengths.size());
  CHECK(series_of(PositionEncoding::rope).mean[at25] < 0.1f);
  CHECK(series_of(PositionEncoding::coupled_rope).mean[at25] > 0.9f);
  CHECK(series_of(PositionEncoding::fire).mean[at25] > 0.8f);
  CHECK(series_of(PositionEncoding::rand_rope).mean[at25] > 0.7f);
  // The attention panel opens on RoPE with coupled-rope beside it at n = 35 (the next test checks the pair).
  CHECK(o.attention.defined);
  CHECK(o.beside.defined);
  // Every shipped experiment together stays within 15 MiB (the browser build copies them all to its site; the
  // first view downloads none of them).
  std::uintmax_t shipped_bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(find_data_dir("assets/lab")))
    if (entry.path().extension() != ".md") shipped_bytes += entry.file_size();
  CHECK(shipped_bytes <= std::uintmax_t(15) << 20);
  // Re-measured from the float16 weights, seed 0 of each fix gives what training printed (within a few of 200).
  for (std::size_t i : {std::size_t(1), std::size_t(2), std::size_t(3)})  // seed 0: rope, coupled-rope, fire, rand-rope
    check_measured_again(o, i, [](int) { return true; });
}

TEST_CASE("the coupled-copy, add-coupled and add-ssmax experiments open from their presets; float16 gives their numbers") {
  // The position range their coupled runs trained with (add-coupled's first run, NoPE, has none in its file).
  for (const auto& [preset, experiment, runs, range] : {std::tuple{"lab-coupled-pretrained", "coupled-copy", 3, 42},
                                                        std::tuple{"lab-addition-pretrained", "add-coupled", 12, 40},
                                                        std::tuple{"lab-addition-ssmax", "add-ssmax", 5, 40}}) {
    INFO(preset);
    AppState s;
    open_preset(s, preset);
    const LabOptions& o = s.pages.lab;
    CHECK(o.opened_shipped == experiment);
    CHECK_FALSE(lab_training(o));
    REQUIRE(int(o.views.size()) == runs);
    CHECK(o.settings.position_range == range);
    LabOptions shown = o;  // the sidebar keeps it: it is already long enough for the runs' sequences
    keep_lab_inputs_valid(shown);
    CHECK(shown.settings.position_range == range);
    for (std::size_t i = 0; i < o.views.size(); i += 3) check_measured_again(o, i, [](int) { return true; });
  }
}

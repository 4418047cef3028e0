// `peviz train` run as the real binary: output lines, saved runs, refusals.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"
#include <nlohmann/json.hpp>

#include "core/train/model.hpp"
#include "core/train/twin.hpp"
#include "run_peviz.hpp"

namespace {

const std::string kSmall = "train --steps 20 --test-samples 5 --d-model 16 --batch 4 --train-max 4 --test-max 8 ";

// `peviz <args>` on one thread and on two: both succeed and print the same JSON line but for its speed, returned.
nlohmann::json same_on_one_and_two_threads(const std::string& args) {
  const RunResult one = run_peviz(args + " --threads 1"), two = run_peviz(args + " --threads 2");
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  nlohmann::json a = nlohmann::json::parse(one.out), b = nlohmann::json::parse(two.out);
  CHECK(a["steps_per_s"].is_number());
  a.erase("steps_per_s");
  b.erase("steps_per_s");
  CHECK(a.dump() == b.dump());
  return a;
}

}  // namespace

TEST_CASE("peviz train prints one JSON object per encoding, null where not defined") {
  const RunResult r = run_peviz(kSmall + "--pe rope,learned --threads 2");
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());  // no progress bar when stderr is not a terminal
  REQUIRE(count_lines(r.out) == 2);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  const nlohmann::json rope = nlohmann::json::parse(line);
  CHECK(rope["pe"] == "rope");
  CHECK(rope["task"] == "copy");
  CHECK(rope["steps"] == 20);
  CHECK(rope["params"] == 13 * 16 + 4 * (16 * 48 + 48 + 16 * 16 + 16 + 16 * 64 + 64 + 64 * 16 + 16 + 4 * 16) + 32 + 16 * 13 + 13);
  CHECK(rope["exact_match"]["5"].is_number());
  CHECK(line.rfind("{\"pe\":\"rope\",\"task\":\"copy\"", 0) == 0);  // keys in the documented order
  std::getline(lines, line);
  const nlohmann::json learned = nlohmann::json::parse(line);
  CHECK(learned["exact_match"]["5"].is_null());  // 13 tokens > 2 * 4 + 3 rows
}

TEST_CASE("peviz train --out saves a run whose learned table the encoding export reads") {
  const std::string path = unique_temp_path("train-cli.safetensors");
  const RunResult trained = run_peviz(kSmall + "--pe learned --out " + path);
  REQUIRE(trained.code == 0);
  CHECK(trained.err == "peviz: wrote 1 file: " + path + "\n");  // the path it was given
  const RunResult r = run_peviz("export encoding --encoding learned --from-safetensors " + path +
                                " --tensor wpe --seq-len 11 --format json");
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["shape"] == nlohmann::json::array({11, 16}));
  std::remove(path.c_str());
}

TEST_CASE("peviz train refuses bad flags with one line and exit 2") {
  check_refused("train --pe fourier", "peviz: --pe: must be nope, sinusoidal, learned, rope, alibi, t5, rand-sinusoidal, "
                                "rand-learned, rand-rope, coupled, coupled-rope, fire, rand-fire, abacus, random-start, a comma list of them, all (the first six) or fixes (the "
                                "rest); got 'fourier'");
  check_refused("train --pe coupled --task sort", "peviz: --pe: coupled cannot train on sort: position coupling needs each "
                                "answer symbol to copy one input symbol (copy, reverse); sort's do not");
  check_refused("train --pe rand-rope --test-max 60 --train-max 20 --position-range 100",
                "peviz: --position-range: must be at least the longest sequence, 2 x max(train-max, test-max) + 3 = 123, got 100");
  check_refused("train --task multiply", "peviz: --task: must be copy, reverse, sort or add, got 'multiply'");
  check_refused("train --pe rand-rope --task add --train-max 10 --test-max 40 --position-range 100",
                "peviz: --position-range: must be at least the longest sequence, 3 x max(train-max, test-max) + 5 = 125, got 100");
  check_refused("train --pe coupled --task add --train-max 10 --test-max 40 --position-range 42",
                "peviz: --position-range: must hold the coupled ids of the longest sequence, max(train-max, test-max) + 3 = 43, got 42");
  check_refused("train --heads 3", "peviz: --heads: d-model / heads must be an even integer (the head dimension), got d-model "
                             "64 and heads 3");
  check_refused("train --steps 0", "peviz: --steps: must be an integer in [1, 100000], got 0");
  check_refused("train --threads 0", "peviz: --threads: must be an integer in [1, 64], got 0");
  check_refused("train --ema 1", "peviz: --ema: must be a finite number in [0, 0.9999], got 1");
  check_refused("train --dropout 0.95", "peviz: --dropout: must be a finite number in [0, 0.9], got 0.95");
  check_refused("train --length-scale softmax", "peviz: --length-scale: must be none, ssmax or logn, got 'softmax'");
  check_refused("train --pe learned,sinusoidal --nope-every 4", "peviz: --nope-every: needs an encoding that acts in "
                "attention (a rotation or a bias); learned,sinusoidal adds its positions to the embeddings");
  check_refused("train --pe rope --layers 2 --nope-every 4",
                "peviz: --nope-every: must be 0 (off), or from 2 up to the layers (2), got 4");
  check_refused("train --pe rope --nope-every 9", "peviz: --nope-every: must be an integer in [0, 8], got 9");
  check_refused("train --pe learned --drope-steps 100", "peviz: --drope-steps: needs an encoding that acts in "
                "attention (a rotation or a bias); learned adds its positions to the embeddings");
  check_refused("train --pe rope --steps 100 --drope-steps 100", "peviz: --drope-steps: must be fewer than the steps "
                "(100), so that training starts with positions, got 100");
  check_refused("train --train-max 5 --test-max 21", "peviz: --test-max: must be at most 4 x train-max (20), got 21");
  // Before any training: a missing folder, and one nobody may create files in (root included).
  check_refused("train --pe rope --out /nonexistent/run.safetensors", "peviz: --out: cannot write /nonexistent/run.safetensors: "
                                                      "No such file or directory");
  check_refused("train --pe rope,t5 --out /proc/run.safetensors", "peviz: --out: cannot write /proc/run-rope.safetensors: "
                                                            "No such file or directory");
  // A run file under another format's name, and an encoding named twice, refused before any training.
  check_refused("train --pe rope --out /tmp/run.txt", "peviz: --out: a run is saved as .safetensors (several runs: "
                "PATH-<pe>[-seed<S>].safetensors and PATH.json), not .txt: /tmp/run.txt");
  check_refused("train --pe rope,t5,rope", "peviz: --pe: names rope twice (again in 'rope'): name each encoding once");
  check_refused("train --pe alibi,all", "peviz: --pe: names alibi twice (again in 'all'): name each encoding once");
}

TEST_CASE("peviz train --list-encodings / --list-tasks print the lab's table, as text or as lab_table.json") {
  const RunResult both = run_peviz("train --list-encodings --list-tasks --format json");
  REQUIRE(both.code == 0);
  CHECK(nlohmann::ordered_json::parse(both.out) == peviz::train::lab_table_json());  // what --emit-pytorch writes
  const nlohmann::json encodings = nlohmann::json::parse(run_peviz("train --list-encodings --format json").out);
  CHECK_FALSE(encodings.contains("tasks"));
  REQUIRE(encodings["encodings"].size() == std::size(peviz::train::kLabEncodings));
  CHECK(encodings["encodings"][10] ==
        nlohmann::json::parse(R"({"name":"coupled-rope","mechanism":"rope","positions":"coupled","group":"fixes"})"));
  const nlohmann::json tasks = nlohmann::json::parse(run_peviz("train --list-tasks --format json").out);
  CHECK_FALSE(tasks.contains("encodings"));
  CHECK(tasks["tasks"][1] == nlohmann::json::parse(R"({"name":"reverse","positions":["contiguous","randomized","coupled","abacus","random-start"]})"));
  // Text: one aligned line per row, the same order; the training flags are left alone.
  const RunResult text = run_peviz("train --list-encodings --steps 5");
  REQUIRE(text.code == 0);
  REQUIRE(count_lines(text.out) == int(std::size(peviz::train::kLabEncodings)));
  CHECK(text.out.starts_with("nope             nope        contiguous    all\n"));
  CHECK(text.out.find("\nrand-rope        rope        randomized    fixes\n") != std::string::npos);
  CHECK(text.out.find("\nrandom-start     learned     random-start  fixes\n") != std::string::npos);
  const std::string samplers = "contiguous,randomized,coupled,abacus,random-start\n";
  CHECK(run_peviz("train --list-tasks").out == "copy     " + samplers + "reverse  " + samplers +
                                               "sort     contiguous,randomized,abacus,random-start\nadd      " + samplers);
  check_refused("train --list-tasks --format csv", "peviz: --format: must be text or json, got 'csv'");
  check_refused("train --format json", "peviz: --format: goes with --list-encodings or --list-tasks");
}

TEST_CASE("peviz train --seeds prints one line per encoding and seed, seed-major, and --out writes the set") {
  const std::string dir = unique_temp_path("train-seeds");
  std::filesystem::create_directories(dir);
  const RunResult r = run_peviz(kSmall + "--pe rope,t5 --seeds 2 --seed 5 --threads 2 --out " + dir + "/exp.safetensors");
  REQUIRE(r.code == 0);
  REQUIRE(count_lines(r.out) == 4);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(nlohmann::json::parse(line));
  CHECK(rows[0]["pe"] == "rope");
  CHECK(rows[0]["seed"] == 5);
  CHECK(rows[1]["pe"] == "t5");
  CHECK(rows[1]["seed"] == 5);
  CHECK(rows[3]["seed"] == 6);
  CHECK(rows[0]["train_max"] == 4);
  CHECK(rows[0]["final_loss"] != rows[2]["final_loss"]);  // another seed, another run
  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir + "/exp.json"));
  REQUIRE(manifest["runs"].size() == 4);
  CHECK(manifest["runs"][3]["file"] == "exp-t5-seed6.safetensors");
  CHECK(manifest["runs"][3]["exact_match"] == rows[3]["exact_match"]);
  CHECK(std::filesystem::exists(dir + "/exp-rope-seed5-loss.csv"));
  CHECK(r.err.rfind("peviz: wrote 15 files: " + dir + "/exp-rope-seed5.safetensors, " + dir + "/exp-rope-seed5-loss.csv, ", 0) == 0);
  CHECK(r.err.find(", " + dir + "/exp-rope-seeds-accuracy.csv, " + dir + "/exp-t5-seeds-accuracy.csv, " + dir +
                   "/exp.json\n") != std::string::npos);  // each encoding over its seeds
  // A list of seeds: exactly those, in that order.
  const RunResult listed = run_peviz(kSmall + "--pe nope --seeds 9,3");
  REQUIRE(count_lines(listed.out) == 2);
  CHECK(nlohmann::json::parse(listed.out.substr(0, listed.out.find('\n')))["seed"] == 9);
  std::filesystem::remove_all(dir);
}

TEST_CASE("peviz train refuses bad seeds with one line") {
  const RunResult zero = run_peviz(kSmall + "--seeds 0");
  CHECK(zero.code == 2);
  CHECK(zero.err == "peviz: --seeds: must be an integer in [1, 64], got 0\n");
  const RunResult junk = run_peviz(kSmall + "--seeds 1,x");
  CHECK(junk.code == 2);
  CHECK(junk.err == "peviz: --seeds: must be a count or a comma list of non-negative integers, got '1,x'\n");
  const RunResult twice = run_peviz(kSmall + "--seeds 3,4,3");
  CHECK(twice.code == 2);
  CHECK(twice.err == "peviz: --seeds: lists seed 3 twice: name each seed once\n");
}

TEST_CASE("Ctrl+C while peviz train --out trains: one line, exit 130, no file") {
  const std::string dir = unique_temp_path("train-sigint");
  std::filesystem::create_directories(dir);
  const std::string err = dir + ".err";
  const pid_t pid = spawn_peviz({"train", "--steps", "100000", "--d-model", "16", "--pe", "rope,t5", "--seeds", "2",
                                 "--out", dir + "/exp.safetensors"}, err);
  REQUIRE(pid > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // training, long before the first run ends
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(slurp(err) == "peviz: interrupted by SIGINT; no output file was written\n");
  CHECK(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
  std::filesystem::remove(err);
}

TEST_CASE("peviz train --emit-pytorch writes the twin's folder, trains nothing, and warns once beyond its limits") {
  const std::string dir = unique_temp_path("emit-pytorch");
  const RunResult r = run_peviz("train --pe rope,alibi --seeds 2 --layers 9 --heads 1 --d-model 16 --steps 200000 "
                                "--emit-pytorch " + dir);
  REQUIRE(r.code == 0);
  CHECK(r.err == "peviz: warning: beyond what peviz trains itself (emitted for the PyTorch twin): layers 9 > 8, "
                 "steps 200000 > 100000\n");
  CHECK(r.out == "wrote " + dir + " (9 files); train with: python3 " + dir + "/lab.py, or on N ranks: python3 " + dir +
                 "/lab.py --ranks N\n");  // tests/twin/distributed_test.py runs both commands as printed
  for (const char* name : {"lab.py", "lab_data.py", "lab_files.py", "lab_table.json", "settings.json",
                           "init-rope-seed0.safetensors", "init-alibi-seed1.safetensors"})
    CHECK(std::filesystem::exists(dir + "/" + name));
  const nlohmann::json settings = nlohmann::json::parse(std::ifstream(dir + "/settings.json"));
  CHECK(settings["settings"]["layers"] == 9);
  CHECK(settings["runs"].size() == 4);
  std::filesystem::remove_all(dir);
  // Within the limits: no warning. A folder name the shell would split is printed quoted, as one word.
  const std::string spaced = dir + " it's";
  const RunResult quiet = run_peviz(kSmall + "--pe nope --emit-pytorch \"" + spaced + "\"");
  CHECK(quiet.code == 0);
  CHECK(quiet.err.empty());
  CHECK(quiet.out == "wrote " + spaced + " (6 files); train with: python3 '" + dir + " it'\\''s/lab.py', or on N ranks: "
                     "python3 '" + dir + " it'\\''s/lab.py' --ranks N\n");
  std::filesystem::remove_all(spaced);
}

TEST_CASE("peviz train --emit-pytorch takes more heads and a wider model than peviz trains; training refuses them") {
  const std::string dir = unique_temp_path("emit-pytorch-wide");
  const RunResult r = run_peviz("train --pe rope --layers 1 --heads 10 --d-model 260 --steps 10 --emit-pytorch " + dir);
  CHECK(r.code == 0);
  CHECK(r.err == "peviz: warning: beyond what peviz trains itself (emitted for the PyTorch twin): heads 10 > 8, "
                 "d-model 260 > 256\n");
  const nlohmann::json settings = nlohmann::json::parse(std::ifstream(dir + "/settings.json"));
  CHECK(settings["settings"]["heads"] == 10);
  CHECK(settings["settings"]["d_model"] == 260);
  std::filesystem::remove_all(dir);
  check_refused("train --pe rope --heads 10 --d-model 260 --steps 10", "peviz: --heads: must be an integer in [1, 8], got 10");
  check_refused("train --pe rope --d-model 300 --steps 10", "peviz: --d-model: must be an integer in [16, 256], got 300");
}

TEST_CASE("peviz train --emit-pytorch refuses bad input with one line") {
  check_refused("train --emit-pytorch /nonexistent/twin", "peviz: --emit-pytorch: cannot write /nonexistent/twin: "
                                                    "/nonexistent is not a folder");
  check_refused("train --emit-pytorch ''", "peviz: --emit-pytorch: needs a folder to write into");
  check_refused("train --heads 3 --emit-pytorch /tmp", "peviz: --heads: d-model / heads must be an even integer (the head "
                                                 "dimension), got d-model 64 and heads 3");
  check_refused("train --layers 0 --emit-pytorch /tmp", "peviz: --layers: must be an integer >= 1, got 0");
  const RunResult both = run_peviz("train --emit-pytorch /tmp/x --out /tmp/x.safetensors");
  CHECK(both.code != 0);
  CHECK(count_lines(both.err) >= 1);
}

TEST_CASE("peviz train prints the same JSON on 1 and 2 threads, for every encoding and fix", "[simd]") {
  // One run per process, so on 2 threads the second core computes halves of its products, attention, GELU, LayerNorm
  // and AdamW throughout (products of 700+ rows). The suite runs this again with the AVX2 paths forced (core_tests_avx2
  // and cli_tests_avx2 in tests/CMakeLists.txt).
  const std::string run = "train --steps 12 --test-samples 8 --d-model 64 --batch 32 --train-max 20 --test-max 25 --pe ";
  for (const peviz::train::PositionEncoding encoding : peviz::train::kAllPositionEncodings) {
    const std::string pe(peviz::train::to_string(encoding));
    INFO(pe);
    same_on_one_and_two_threads(run + pe);
  }
}

TEST_CASE("peviz train with EMA and dropout prints the same JSON on 1 and 2 threads", "[simd]") {
  const std::string run = "train --steps 12 --test-samples 8 --d-model 64 --batch 32 --train-max 20 --test-max 25 --pe ";
  for (const std::string pe : {"rope", "fire"}) {
    INFO(pe);
    const std::string on = " --ema 0.9 --dropout 0.2";
    const nlohmann::json a = same_on_one_and_two_threads(run + pe + on);
    const RunResult off = run_peviz(run + pe + " --threads 1");
    REQUIRE(off.code == 0);
    CHECK(nlohmann::json::parse(off.out)["final_loss"] != a["final_loss"]);  // they change the run
  }
}

TEST_CASE("peviz train with a length scale: the same JSON on 1 and 2 threads, named in it", "[simd]") {
  const std::string run = "train --steps 12 --test-samples 8 --d-model 64 --batch 32 --train-max 10 --test-max 20 --pe rope";
  const RunResult off = run_peviz(run + " --threads 1");
  REQUIRE(off.code == 0);
  CHECK_FALSE(nlohmann::json::parse(off.out).contains("length_scale"));  // off: the line as before
  for (const std::string scale : {"ssmax", "logn"}) {
    INFO(scale);
    const nlohmann::json a = same_on_one_and_two_threads(run + " --length-scale " + scale);
    CHECK(a["length_scale"] == scale);
    // SSMax scales every row; log-n is 1 up to the longest training sequence, so training is the plain run's.
    const nlohmann::json plain_loss = nlohmann::json::parse(off.out)["final_loss"];
    if (scale == "ssmax") CHECK(a["final_loss"] != plain_loss);
    else CHECK(a["final_loss"] == plain_loss);
  }
}

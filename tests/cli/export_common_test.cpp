// Tests for cli/export_common through the real binary: the shared encoding flags (a learned table from
// --from-safetensors --tensor, and its errors), and the streamed output (emit_rows): bytes equal to core's
// in-memory results, any --threads, Ctrl+C and refused sizes leave no file.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <bit>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <spawn.h>

#include <nlohmann/json.hpp>

#include "core/encodings/absolute_encodings.hpp"
#include "core/encodings/alibi.hpp"
#include "core/encodings/distance_series.hpp"
#include "core/io/nd_array.hpp"
#include "core/encodings/shaw.hpp"
#include "core/encodings/similarity.hpp"
#include "core/encodings/t5_buckets.hpp"
#include "run_peviz.hpp"

namespace fs = std::filesystem;

namespace {

std::string le(std::uint64_t v, int n) {
  std::string s(std::size_t(n), '\0');
  for (int i = 0; i < n; ++i) s[std::size_t(i)] = char((v >> (8 * i)) & 0xff);
  return s;
}

// A GPT-2-shaped checkpoint in miniature: wpe [3, 2] in BF16 and wte [4] in F32 (1-D, not a table).
std::string write_checkpoint(const std::string& name) {
  const std::string wpe = le(0x3F80, 2) + le(0xBF00, 2) + le(0x4049, 2) + le(0x0000, 2) + le(0x4000, 2) + le(0xC080, 2);
  std::string wte;
  for (float v : {1.0f, 2.0f, 3.0f, 4.0f}) wte += le(std::bit_cast<std::uint32_t>(v), 4);
  const nlohmann::json h = {
      {"transformer.wpe.weight", {{"dtype", "BF16"}, {"shape", {3, 2}}, {"data_offsets", {0, 12}}}},
      {"transformer.wte.bias", {{"dtype", "F32"}, {"shape", {4}}, {"data_offsets", {12, 28}}}},
  };
  const std::string text = h.dump();
  const std::string path = unique_temp_path(name);
  std::ofstream os(path, std::ios::binary);
  os << le(text.size(), 8) << text << wpe << wte;
  return path;
}

}  // namespace

TEST_CASE("export encoding reads a learned table from a safetensors tensor") {
  const std::string path = write_checkpoint("peviz-cli-ok.safetensors");
  RunResult r = run_peviz("export encoding --encoding learned --from-safetensors " + path +
                          " --tensor transformer.wpe.weight --seq-len 3 --format json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == nlohmann::json::array({3, 2}));
  // BF16 0x3F80 = 1, 0xBF00 = -0.5, 0x4049 = 3.140625, 0, 0x4000 = 2, 0xC080 = -4
  CHECK(j["data"] == nlohmann::json::array({1.0, -0.5, 3.140625, 0.0, 2.0, -4.0}));
  CHECK(j["params"]["source"] == "safetensors:transformer.wpe.weight");
  CHECK(j["params"]["max_len"] == 3);

  // Past the table's 3 rows there is no embedding: refused, as with --from-npy.
  r = run_peviz("export encoding --encoding learned --from-safetensors " + path +
                " --tensor transformer.wpe.weight --seq-len 4");
  CHECK(r.code == 2);
  CHECK(r.err.find("--seq-len") != std::string::npos);
  fs::remove(path);
}

TEST_CASE("bad safetensors flags and files exit 2 with one line naming the flag") {
  const std::string path = write_checkpoint("peviz-cli-bad.safetensors");
  struct Case {
    std::string args, expected;
  };
  const Case cases[] = {
      {"--from-safetensors " + path, "peviz: --tensor: --from-safetensors needs --tensor NAME\n"},
      {"--tensor wpe", "peviz: --tensor: needs --from-safetensors PATH\n"},
      {"--from-safetensors " + path + " --tensor transformer.wte.bias",
       "peviz: --from-safetensors: tensor 'transformer.wte.bias' must be 2-D [positions, channels], got 1-D\n"},
      {"--from-safetensors " + path + " --tensor wpe",
       "peviz: --from-safetensors: no tensor named 'wpe'; 2-D float tensors: transformer.wpe.weight\n"},
      {"--from-safetensors /nonexistent.safetensors --tensor wpe",
       "peviz: --from-safetensors: cannot open /nonexistent.safetensors: No such file or directory\n"},
      {"--from-safetensors " + path + " --tensor x --from-npy x.npy",
       "peviz: --from-safetensors: give either --from-npy or --from-safetensors, not both\n"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const RunResult r = run_peviz("export encoding --encoding learned " + c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.expected);
    CHECK(r.out.empty());
  }
  const RunResult r = run_peviz("export encoding --from-safetensors " + path + " --tensor transformer.wpe.weight");
  CHECK(r.err == "peviz: --from-safetensors: needs --encoding learned\n");

  // A truncated checkpoint: the data the header promises is not there.
  fs::resize_file(path, fs::file_size(path) - 10);
  const RunResult t = run_peviz("export encoding --encoding learned --from-safetensors " + path +
                                " --tensor transformer.wpe.weight --seq-len 3");
  CHECK(t.code == 2);
  CHECK(t.err == "peviz: --from-safetensors: tensor 'transformer.wte.bias' claims bytes [12, 28) but the data buffer "
                 "has only 18 bytes\n");
  fs::remove(path);
}

// --- streamed output ---------------------------------------------------------------------------------------

using namespace peviz;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("peviz-stream-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string npy_of(const NdArray& a) {
  std::ostringstream os;
  write_npy(os, a);
  return os.str();
}
std::string csv_of(const NdArray& a) {
  std::ostringstream os;
  write_csv(os, a);
  return os.str();
}

// The CSV's header line apart from its body.
std::pair<std::string, std::string> header_and_body(const std::string& csv) {
  const std::size_t eol = csv.find('\n');
  if (eol == std::string::npos) return {csv, ""};
  return {csv.substr(0, eol), csv.substr(eol + 1)};
}

// `peviz <args> --format npy|csv` equals core's in-memory array, written by the in-memory writers; the CSV's header
// names each column and starts with `header_start`.
void check_export(const std::string& args, const NdArray& expected, const std::string& header_start) {
  INFO("peviz " << args);
  const fs::path dir = fresh_dir("same");
  for (const char* threads : {"1", "3"}) {
    const std::string out = (dir / "x.npy").string();
    RunResult r = run_peviz(args + " --threads " + threads + " --format npy --out " + out);
    REQUIRE(r.code == 0);
    CHECK(slurp(out) == npy_of(expected));
    r = run_peviz(args + " --threads " + threads + " --format csv");
    REQUIRE(r.code == 0);
    const auto [header, body] = header_and_body(r.out);
    CHECK(header.rfind(header_start, 0) == 0);
    CHECK(std::size_t(std::count(header.begin(), header.end(), ',')) + 1 == expected.shape.back());
    CHECK(body == header_and_body(csv_of(expected)).second);
  }
  fs::remove_all(dir);
}

NdArray sinusoid_similarity(int d, int L, Metric metric, Encoding e = Encoding::sinusoidal) {
  EncodingParams p;
  p.encoding = e;
  p.d_model = d;
  p.seq_len = L;
  p.max_len = L;
  Matrix m;
  similarity(p, metric, m);
  return NdArray::from_matrix(m);
}

}  // namespace

TEST_CASE("every streamed export has the bytes of core's in-memory result, on 1 and 3 threads") {
  EncodingParams p;
  p.seq_len = 700;
  p.d_model = 12;
  check_export("export encoding --seq-len 700 --d-model 12", NdArray::from_matrix(encode(p)), "dim_0,dim_1,");
  p.encoding = Encoding::binary;
  const Matrix bits = encode(p);
  check_export("export encoding --encoding binary --seq-len 700 --d-model 12",
               NdArray::from_ints({700, 12}, std::vector<std::int32_t>(bits.data.begin(), bits.data.end())), "dim_0,");
  check_export("export similarity --metric cosine --seq-len 300 --d-model 64", sinusoid_similarity(64, 300, Metric::cosine),
               "position_0,position_1,");
  check_export("export similarity --metric dot --seq-len 300 --d-model 7", sinusoid_similarity(7, 300, Metric::dot), "position_0,");
  check_export("export similarity --metric cosine --encoding learned --max-len 300 --seq-len 300 --d-model 33",
               sinusoid_similarity(33, 300, Metric::cosine, Encoding::learned), "position_0,");
  check_export("export alibi-bias --heads 3 --seq-len 50", alibi_bias(3, 50, false), "key_0,key_1,");
  T5BucketParams t5;
  t5.query_len = 40;
  t5.key_len = 90;
  check_export("export t5-buckets --seq-len 40 --key-len 90", t5_bucket_matrix(t5), "key_0,");
  ShawParams shaw;
  shaw.query_len = 40;
  shaw.key_len = 90;
  shaw.max_relative = 5;
  check_export("export shaw --seq-len 40 --key-len 90 --max-relative 5", shaw_relative_positions(shaw), "key_0,");
  DistanceSeriesParams ds;
  ds.seq_len = 60;
  ds.heads = 4;
  check_export("export distance-series --seq-len 60 --heads 4", series_table(distance_series(ds)), "r,");
}

TEST_CASE("a size over --max-output or the free space is refused before writing: one line, exit 2, no file") {
  const fs::path dir = fresh_dir("refused");
  const std::string out = (dir / "s.npy").string();
  RunResult r = run_peviz("export similarity --seq-len 4096 --format npy --max-output 32MiB --out " + out);
  CHECK(r.code == 2);
  CHECK(r.err == "peviz: --max-output: the NPY output would take 64 MiB, over the --max-output limit of 32 MiB\n");
  // 4096 heads x 65536 x 65536 float32 = 64 TiB: over any test machine's free space.
  r = run_peviz("export alibi-bias --heads 4096 --seq-len 65536 --format npy --max-output 1000TiB --out " + out);
  CHECK(r.code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK(r.err.rfind("peviz: --out: the NPY output would take 65536 GiB but " + dir.string() + " has ", 0) == 0);
  CHECK(fs::is_empty(dir));
  // Standard output has no free space, but --max-output still holds.
  r = run_peviz("export similarity --seq-len 4096 --max-output 1MiB --out -");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "peviz: --max-output: the CSV output could take up to 256.1 MiB, over the --max-output limit of 1 MiB\n");
  fs::remove_all(dir);
}

TEST_CASE("SIGINT or SIGTERM in the middle of a large export: no file, no temporary file, one line") {
  for (int sig : {SIGINT, SIGTERM}) {
    INFO("signal " << sig);
    const fs::path dir = fresh_dir("signal");
    const std::string err = (fs::temp_directory_path() / ("peviz-signal-err-" + std::to_string(::getpid()))).string();
    // 8192^2 dot products of 1024 channels: seconds of work for a 256 MiB file (small enough
    // for any test machine's free space), written a block at a time.
    const pid_t pid = spawn_peviz({"export", "similarity", "--encoding", "learned", "--max-len", "8192", "--seq-len",
                                   "8192", "--d-model", "1024", "--format", "npy", "--quiet", "--out",
                                   (dir / "big.npy").string()},
                                  err);
    REQUIRE(pid > 0);
    // Wait until the temporary file has data, so the signal lands mid-write.
    bool writing = false;
    for (int i = 0; i < 200 && !writing; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      for (const auto& entry : fs::directory_iterator(dir)) writing = writing || entry.file_size() > (1u << 20);
    }
    CHECK(writing);
    ::kill(pid, sig);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + sig);
    CHECK(slurp(err) == std::string("peviz: interrupted by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                            "; no output file was written\n");
    CHECK(fs::is_empty(dir));
    fs::remove(err);
    fs::remove_all(dir);
  }
}

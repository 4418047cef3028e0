// Tests for the shared encoding flags: a learned table from --from-safetensors --tensor, and its errors.
#include <catch2/catch.hpp>
#include "tests/temp_path.hpp"

#include <bit>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

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

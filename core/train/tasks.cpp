// Generating copy / reverse / sort / add sequences and packed training batches from seeded streams.
#include "core/train/tasks.hpp"

#include <algorithm>

namespace peviz::train {

std::string_view to_string(Task t) { return kTaskNames[int(t)]; }

bool parse_task(std::string_view s, Task& out) {
  for (int i = 0; i < int(kTaskNames.size()); ++i)
    if (kTaskNames[i] == s) {
      out = Task(i);
      return true;
    }
  return false;
}

std::string task_names(std::string_view separator, std::string_view last) {
  std::string text;
  for (std::size_t i = 0; i < std::size(kAllTasks); ++i)
    text += std::string(i == 0 ? "" : i + 1 == std::size(kAllTasks) ? last : separator) + std::string(to_string(kAllTasks[i]));
  return text;
}

namespace {

// BOS a SEP b SEP c EOS: a and b the two halves of `digits`, c = a + b, every number least significant digit first.
std::vector<int> addition_sequence(const std::vector<int>& digits) {
  const std::size_t n = digits.size() / 2;
  std::vector<int> seq{kBos};
  seq.insert(seq.end(), digits.begin(), digits.begin() + std::ptrdiff_t(n));
  seq.push_back(kSep);
  seq.insert(seq.end(), digits.begin() + std::ptrdiff_t(n), digits.end());
  seq.push_back(kSep);
  int carry = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const int sum = digits[k] + digits[n + k] + carry;
    seq.push_back(sum % 10);
    carry = sum / 10;
  }
  seq.push_back(carry);
  seq.push_back(kEos);
  return seq;
}

}  // namespace

int answer_start(const std::vector<int>& sequence) {
  const auto last = std::find(sequence.rbegin(), sequence.rend(), kSep);
  return int(sequence.rend() - last) - 1;
}

std::string token_role(Task task, int i, int n) {
  const int start = first_answer_target(task, n);
  if (i == 0) return "BOS";
  if (i >= sequence_length(task, n) - 1) return "EOS";
  if (task != Task::add) {
    if (i == start) return "SEP";
    return (i < start ? "x" : "y") + std::to_string(i < start ? i : i - start);
  }
  if (i == n + 1) return "SEP (+)";
  if (i == start) return "SEP (=)";
  if (i <= n) return "a" + std::to_string(i - 1);
  return i < start ? "b" + std::to_string(i - n - 2) : "c" + std::to_string(i - start - 1);
}

std::vector<int> task_sequence(Task task, const std::vector<int>& symbols) {
  if (task == Task::add) return addition_sequence(symbols);
  std::vector<int> answer = symbols;
  if (task == Task::reverse) std::reverse(answer.begin(), answer.end());
  if (task == Task::sort) std::sort(answer.begin(), answer.end());
  std::vector<int> seq{kBos};
  seq.insert(seq.end(), symbols.begin(), symbols.end());
  seq.push_back(kSep);
  seq.insert(seq.end(), answer.begin(), answer.end());
  seq.push_back(kEos);
  return seq;
}

std::vector<int> random_symbols(std::mt19937_64& rng, int n) {
  std::vector<int> s(static_cast<std::size_t>(n));
  for (int& x : s) x = int(rng() % kSymbols);
  return s;
}

void training_batch(Task task, int batch, int train_max, std::mt19937_64& rng, PackedBatch& out) {
  out.clear();
  for (int i = 0; i < batch; ++i) {
    const int n = 1 + int(rng() % std::uint64_t(train_max));
    out.append(task_sequence(task, random_symbols(rng, input_symbols(task, n))), first_answer_target(task, n));
  }
}

std::vector<int> test_lengths(int test_max) {
  std::vector<int> n;
  for (int k = 5; k <= test_max; k += 5) n.push_back(k);
  if (test_max % 5 != 0) n.push_back(test_max);
  return n;
}

std::vector<std::vector<int>> test_sequences(Task task, int n, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ (0xD1B54A32D192ED03ull * std::uint64_t(n + 1)));
  std::vector<std::vector<int>> out;
  for (int i = 0; i < count; ++i) out.push_back(task_sequence(task, random_symbols(rng, input_symbols(task, n))));
  return out;
}

}  // namespace peviz::train

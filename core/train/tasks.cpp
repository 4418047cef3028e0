// Generating copy / reverse / sort sequences and packed training batches from seeded streams.
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

std::vector<int> task_sequence(Task task, const std::vector<int>& symbols) {
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
    out.append(task_sequence(task, random_symbols(rng, n)), first_answer_target(n));
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
  for (int i = 0; i < count; ++i) out.push_back(task_sequence(task, random_symbols(rng, n)));
  return out;
}

}  // namespace peviz::train

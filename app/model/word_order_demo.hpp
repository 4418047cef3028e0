// The lesson's first demo: "the cat chased the mouse" vs "the mouse chased the cat". Without positions
// both sentences are the same bag of token vectors; adding sinusoidal position vectors tells them apart.
#pragma once
#include <string>
#include <vector>

#include "app/model/teach_state.hpp"

namespace peviz::app {

inline constexpr int kWordOrderDim = 8;  // channels of the toy embeddings and position vectors

// A fixed pseudo-random embedding of `word` in [-1, 1]^d (splitmix64 of an FNV-1a hash of the word),
// so the same word always gets the same vector.
std::vector<float> toy_token_embedding(const std::string& word, int d);

// Builds the demo for two orders of the same words (d = kWordOrderDim, sinusoidal base 10000,
// interleaved, as core's encode()). Defaults to the cat/mouse pair.
WordOrderDemo make_word_order_demo(const std::vector<std::string>& a = {"the", "cat", "chased", "the", "mouse"},
                                   const std::vector<std::string>& b = {"the", "mouse", "chased", "the", "cat"});

// True when the two token matrices hold the same rows as multisets (same bag of token vectors).
bool same_bag_of_rows(const Matrix& x, const Matrix& y);

}  // namespace peviz::app

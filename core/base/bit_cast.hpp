// peviz::bit_cast: the compiler builtin that std::bit_cast is made of, for a standard library without it
// (libc++ 14, the browser build's). Both GCC 12 and clang 14 provide __builtin_bit_cast.
#pragma once
#include <type_traits>

namespace peviz {

template <class To, class From>
  requires(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

}  // namespace peviz

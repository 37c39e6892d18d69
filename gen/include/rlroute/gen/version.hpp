#pragma once

namespace rlroute {
inline constexpr const char* kVersion = "0.1.0";
}

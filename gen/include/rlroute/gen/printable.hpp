// Text from the user (a value, a path) as it may appear in a one-line
// message: control characters (a newline, an escape sequence, a NUL) and bytes
// that are not UTF-8 are shown as \xNN, never sent to the terminal raw.
#pragma once

#include <string>
#include <string_view>

namespace rlroute {

std::string printable(std::string_view text);

}  // namespace rlroute

#include <optional>

#include "commands.hpp"
#include "rlroute/tb/sim_options.hpp"

namespace rlroute::cli {

CLI::Option* add_integer_option(CLI::App* app, const std::string& flag, std::optional<std::int64_t>& into,
                                const std::string& help) {
  return app
      ->add_option_function<std::string>(
          flag, [&into, flag](const std::string& text) { into = parse_integer_flag(flag, text); }, help)
      ->type_name("INT");
}

}  // namespace rlroute::cli

# Read by CTest after the tests that gtest_discover_tests found (TEST_INCLUDE_FILES,
# tests/CMakeLists.txt): the network tests on the generated network top (and the
# other long ones rlroute_network_tests names) get the
# labels network and net_long (CI's second step).
foreach(list IN ITEMS network_tests_long checker_tests_long head_decision_tests_long dragonfly_network_tests_long
                  q_adaptive_network_tests_long star_network_tests_long
                  dqn_network_tests_long)
  if(${list})
    set_tests_properties(${${list}} PROPERTIES LABELS "network;net_long")
  endif()
endforeach()

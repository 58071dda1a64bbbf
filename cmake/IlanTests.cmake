# Test registration for ilan. Included from the top-level CMakeLists.txt.
#
#   tests/unit/test_*.c  -> executable linked with the runtime's objects
#                           (hidden internals visible); ctest name unit.NAME,
#                           label "unit".
#   tests/omp/NAME.c     -> program built with gcc -fopenmp against the system
#                           libgomp, run on ilan via LD_LIBRARY_PATH=<build>/lib;
#                           ctest names omp.NAME.tN (N = 1 2 3 8 64), label "omp".
#                           Files starting with "_" are skipped.
#   tools/check-abi.sh   -> ctest "abi.symbols", label "unit".
#   tools/check_layers.py -> ctest "layers.check", label "unit": includes only
#                           go down the layers, no module circles (src/).
#   tests/mpi/run.sh     -> ctest "mpi.hybrid_bind", label "mpi": a hybrid
#                           MPI + OpenMP program under mpirun --bind-to core;
#                           installs Open MPI if missing (tools/install-mpi.sh),
#                           skipped (exit 77) when it cannot.
#
# Directives in an OpenMP test source (one per line, anywhere in the file):
#   // ilan-test: threads=1,4          thread counts instead of 1,2,3,8,64
#                                      ("default": OMP_NUM_THREADS unset)
#   // ilan-test: env=VAR=VAL;V2=VAL2  extra environment entries; a value cannot
#                                      hold spaces, so write a space as %20
#                                      (env=HWLOC_SYNTHETIC=pack:2%20pu:1)
#   // ilan-test: args=-n 100 --quick  command-line arguments (rest of line)
#   // ilan-test: tsan                 also label "tsan" (run in the TSan build)
#   // ilan-test: serial               run alone (RUN_SERIAL): it asserts how work
#                                      spreads over its threads, which another
#                                      test's threads on the same cores would skew
#   // ilan-test: modes=ilan,numa,ws   run once per ILAN_TASKLOOP mode; names
#                                      omp.NAME.tN (ilan), omp.NAME.MODE.tN
#   // ilan-test: vary=VAR=A,B,C       also run with VAR=B and with VAR=C (A is
#                                      the default, which the runs above use), in
#                                      the default taskloop mode; names
#                                      omp.NAME.B.tN. Several vary= add up.
#   // ilan-test: prefix: taskset -c 0 run the program under this command (<SRC> stands
#                                      for the source tree: prefix: <SRC>/tools/hang-catch.sh ...)
#   // ilan-test: expect-fail: REGEX  must exit non-zero, printing a line matching REGEX
#   // ilan-test: expect-output: REGEX must exit zero, printing a line matching REGEX
# Several space-separated directives may share a line, except args= which
# takes the rest of its line; prefix: and expect-*: take the whole line.

set(ILAN_OMP_THREADS 1 2 3 8 64)
set(ILAN_TEST_TIMEOUT 60)
set(ILAN_TSAN_ENV "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1")

# gcc 12's TSan fails ("unexpected memory mapping") when the kernel uses more
# than 28 bits of mmap ASLR entropy; then run sanitized programs with ASLR off.
set(ILAN_TSAN_LAUNCHER)
if(ILAN_TSAN AND EXISTS /proc/sys/vm/mmap_rnd_bits)
  file(READ /proc/sys/vm/mmap_rnd_bits rnd_bits)
  string(STRIP "${rnd_bits}" rnd_bits)
  find_program(SETARCH_PROGRAM setarch)
  if(rnd_bits GREATER 28 AND SETARCH_PROGRAM)
    set(ILAN_TSAN_LAUNCHER ${SETARCH_PROGRAM} ${CMAKE_SYSTEM_PROCESSOR} -R)
  endif()
endif()

# ---- unit tests ------------------------------------------------------------
# tests/unit/test_*.c and the simulator's tests/sim/test_*.c: one executable
# each, ctest name unit.NAME or sim.NAME, label "unit".
file(GLOB ILAN_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c
     ${CMAKE_SOURCE_DIR}/tests/sim/test_*.c)
foreach(src IN LISTS ILAN_UNIT_TESTS)
  get_filename_component(name ${src} NAME_WE)
  get_filename_component(dir ${src} DIRECTORY)
  get_filename_component(suite ${dir} NAME) # unit or sim
  set(target ${suite}_${name})
  add_executable(${target} ${src})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${name}
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/${suite})
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit)
  # -UNDEBUG: tests use assert() in every build type.
  target_compile_options(${target} PRIVATE -UNDEBUG)
  # The simulator's tests link its engine (and through it the policy
  # library); a test of pure policy (it includes nothing but sched/,
  # base/ and unit.h) links the policy library alone; the others the
  # whole runtime.
  file(STRINGS ${src} unit_includes REGEX "^#include \"")
  set(unit_pure TRUE)
  foreach(inc IN LISTS unit_includes)
    if(NOT inc MATCHES "^#include \"(sched/|base/|unit\\.h)")
      set(unit_pure FALSE)
    endif()
  endforeach()
  if(suite STREQUAL "sim")
    target_link_libraries(${target} PRIVATE ilan_sim)
    target_link_options(${target} PRIVATE ${ILAN_TSAN_FLAGS})
  elseif(unit_pure)
    target_link_libraries(${target} PRIVATE ilan_sched)
    target_link_options(${target} PRIVATE ${ILAN_TSAN_FLAGS})
  else()
    target_link_libraries(${target} PRIVATE ilan_obj ${ILAN_LINK_LIBS})
    target_link_options(${target} PRIVATE -pthread ${ILAN_TSAN_FLAGS})
  endif()
  add_test(NAME ${suite}.${name} COMMAND ${ILAN_TSAN_LAUNCHER} $<TARGET_FILE:${target}>)
  # A unit test that exercises concurrency asks for the TSan run with the
  # same directive as the OpenMP tests ("// ilan-test: tsan").
  file(STRINGS ${src} unit_tsan REGEX "ilan-test:.*[ \t]tsan")
  if(unit_tsan)
    set_tests_properties(${suite}.${name} PROPERTIES LABELS "unit;tsan" TIMEOUT ${ILAN_TEST_TIMEOUT})
  else()
    set_tests_properties(${suite}.${name} PROPERTIES LABELS unit TIMEOUT ${ILAN_TEST_TIMEOUT})
  endif()
  if(ILAN_TSAN)
    set_tests_properties(${suite}.${name} PROPERTIES ENVIRONMENT "${ILAN_TSAN_ENV}")
  endif()
endforeach()

# ---- ABI check ---------------------------------------------------------------
add_test(NAME abi.symbols
  COMMAND ${CMAKE_SOURCE_DIR}/tools/check-abi.sh $<TARGET_FILE:ilan>)
set_tests_properties(abi.symbols PROPERTIES LABELS unit TIMEOUT ${ILAN_TEST_TIMEOUT})

# ---- layer check ------------------------------------------------------------
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME layers.check
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tools/check_layers.py ${CMAKE_SOURCE_DIR}/src)
set_tests_properties(layers.check PROPERTIES LABELS "unit;tsan" TIMEOUT ${ILAN_TEST_TIMEOUT})

# ---- hybrid MPI test ----------------------------------------------------------
# Not in the TSan build (only tests labeled tsan run there). RUN_SERIAL: it binds
# one rank per core and may run apt-get.
if(NOT ILAN_TSAN)
  add_test(NAME mpi.hybrid_bind
    COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/run.sh ${ILAN_LIB_DIR} ${CMAKE_BINARY_DIR}/tests/mpi)
  set_tests_properties(mpi.hybrid_bind PROPERTIES
    LABELS mpi TIMEOUT 900 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endif()

# ---- OpenMP tests ------------------------------------------------------------
find_package(OpenMP REQUIRED COMPONENTS C)

file(GLOB ILAN_OMP_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/omp/*.c)
foreach(src IN LISTS ILAN_OMP_TESTS)
  get_filename_component(name ${src} NAME_WE)
  if(name MATCHES "^_")
    continue()
  endif()

  # Parse "// ilan-test:" directives. Semicolons are protected while the
  # file is handled as a CMake list, then restored.
  set(threads ${ILAN_OMP_THREADS})
  set(env)
  set(args)
  set(labels omp)
  set(expect)
  set(prefix)
  set(modes ilan)
  set(varied)
  set(serial FALSE)
  file(READ ${src} text)
  string(REPLACE ";" "<ILAN_SEMI>" text "${text}")
  string(REGEX MATCHALL "//[ \t]*ilan-test:[^\n]*" lines "${text}")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^//[ \t]*ilan-test:[ \t]*" "" line "${line}")
    string(STRIP "${line}" line)
    # expect-fail: REGEX / expect-output: REGEX take the rest of the line.
    if(line MATCHES "^expect-(fail|output):[ \t]*(.+)$")
      string(REPLACE "<ILAN_SEMI>" ";" regex "${CMAKE_MATCH_2}")
      set(expect ${CMAKE_MATCH_1} "${regex}")
      continue()
    endif()
    # prefix: COMMAND... runs the test under another command (e.g. taskset).
    if(line MATCHES "^prefix:[ \t]*(.+)$")
      string(REPLACE "<SRC>" "${CMAKE_SOURCE_DIR}" line "${CMAKE_MATCH_1}")
      separate_arguments(prefix UNIX_COMMAND "${line}")
      continue()
    endif()
    set(rest "")
    if(line MATCHES "(^|[ \t])args=(.*)$")
      set(rest "${CMAKE_MATCH_2}")
      string(REGEX REPLACE "(^|[ \t])args=.*$" "" line "${line}")
      string(REPLACE "<ILAN_SEMI>" ";" rest "${rest}")
      separate_arguments(rest UNIX_COMMAND "${rest}")
      list(APPEND args ${rest})
    endif()
    string(REGEX REPLACE "[ \t]+" ";" items "${line}")
    foreach(item IN LISTS items)
      string(REPLACE "<ILAN_SEMI>" ";" item "${item}")
      if(item MATCHES "^threads=(.+)$")
        string(REPLACE "," ";" threads "${CMAKE_MATCH_1}")
      elseif(item MATCHES "^modes=(.+)$")
        string(REPLACE "," ";" modes "${CMAKE_MATCH_1}")
      elseif(item MATCHES "^vary=([A-Z_0-9]+)=([^,]+),(.+)$")
        # the first value is the default: the other values add runs
        string(REPLACE "," ";" values "${CMAKE_MATCH_3}")
        foreach(value IN LISTS values)
          list(APPEND varied "${value}=${CMAKE_MATCH_1}")
        endforeach()
      elseif(item MATCHES "^env=(.+)$")
        string(REPLACE "%20" " " item "${CMAKE_MATCH_1}")
        list(APPEND env "${item}")
      elseif(item STREQUAL "tsan")
        list(APPEND labels tsan)
      elseif(item STREQUAL "serial")
        set(serial TRUE)
      elseif(NOT item STREQUAL "")
        message(WARNING "${src}: unknown ilan-test directive '${item}'")
      endif()
    endforeach()
  endforeach()

  # The TSan build only builds and registers tests marked tsan.
  if(ILAN_TSAN AND NOT "tsan" IN_LIST labels)
    continue()
  endif()

  add_executable(omp_${name} ${src})
  set_target_properties(omp_${name} PROPERTIES
    OUTPUT_NAME ${name}
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/omp)
  target_include_directories(omp_${name} PRIVATE
    ${CMAKE_SOURCE_DIR}/tests/omp ${CMAKE_SOURCE_DIR}/include)
  # A user program: gcc -fopenmp -O2, linked to the system libgomp; the
  # runtime is swapped in at run time through LD_LIBRARY_PATH.
  target_compile_options(omp_${name} PRIVATE
    ${OpenMP_C_FLAGS} -O2 -g -UNDEBUG -Wall ${ILAN_TSAN_FLAGS})
  target_link_options(omp_${name} PRIVATE ${OpenMP_C_FLAGS} ${ILAN_TSAN_FLAGS})
  target_link_libraries(omp_${name} PRIVATE ${CMAKE_DL_LIBS} m)
  # Build the runtime first so "make" leaves everything runnable.
  add_dependencies(omp_${name} ilan)

  # ThreadSanitizer slows every atomic by ~100x: its runs stop at 8 threads.
  if(ILAN_TSAN)
    list(FILTER threads EXCLUDE REGEX "^([0-9][0-9]+|9)$")
  endif()

  # modes=ilan,numa,ws: the test runs once per ILAN_TASKLOOP mode (the
  # default mode, ilan, keeps the plain name).
  # vary=VAR=A,B: each other value adds a run "B" with VAR=B (list items
  # "B=VAR" from the parser).
  foreach(mode IN LISTS modes varied)
  foreach(n IN LISTS threads)
    if(mode STREQUAL "ilan")
      set(t omp.${name}.t${n})
      set(mode_env)
    elseif(mode MATCHES "^([^=]+)=(.+)$")
      set(t omp.${name}.${CMAKE_MATCH_1}.t${n})
      set(mode_env "${CMAKE_MATCH_2}=${CMAKE_MATCH_1}")
    else()
      set(t omp.${name}.${mode}.t${n})
      set(mode_env "ILAN_TASKLOOP=${mode}")
    endif()
    if(expect)
      # tests/expect.sh checks the exit status and the output (stdout and stderr).
      add_test(NAME ${t} COMMAND sh ${CMAKE_SOURCE_DIR}/tests/expect.sh ${expect}
               ${ILAN_TSAN_LAUNCHER} ${prefix} $<TARGET_FILE:omp_${name}> ${args})
    else()
      add_test(NAME ${t} COMMAND ${ILAN_TSAN_LAUNCHER} ${prefix} $<TARGET_FILE:omp_${name}> ${args})
    endif()
    # threads=default: OMP_NUM_THREADS unset, the runtime picks the size.
    if(n STREQUAL "default")
      set(test_env "LD_LIBRARY_PATH=${ILAN_LIB_DIR}" ${mode_env} ${env})
      set_tests_properties(${t} PROPERTIES ENVIRONMENT_MODIFICATION "OMP_NUM_THREADS=unset:")
    else()
      set(test_env "OMP_NUM_THREADS=${n}" "LD_LIBRARY_PATH=${ILAN_LIB_DIR}" ${mode_env} ${env})
    endif()
    if(ILAN_TSAN)
      list(APPEND test_env "${ILAN_TSAN_ENV}")
    endif()
    set_tests_properties(${t} PROPERTIES
      ENVIRONMENT "${test_env}"
      TIMEOUT ${ILAN_TEST_TIMEOUT}
      LABELS "${labels}"
      RUN_SERIAL ${serial})
  endforeach()
  endforeach()
endforeach()

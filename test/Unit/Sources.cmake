# The unit tests' sources, relative to test/Unit: read by test/Unit and by
# the core-only build (test/Unit/CoreOnly), so both build the same tests.
set(BIRSIM_CORE_TEST_SOURCES
  Core/BfpDeviceTest.cpp
  Core/BfpTest.cpp
  Core/CastTest.cpp
  Core/DmaComputeTest.cpp
  Core/FidelityTest.cpp
  Core/BfpMixedTest.cpp
  Core/FloatTest.cpp
  Core/MxTest.cpp
  Core/PlainSfpuTest.cpp
  Core/ReduceTest.cpp
  Core/SfpuTest.cpp
  Core/SfpuVsPlainTest.cpp
  Core/TensixMatmulTest.cpp
  Core/TensixTest.cpp
  Core/TtFp8Test.cpp)
set(BIRSIM_SIMD_TEST_SOURCES
  Core/SimdTest.cpp
  Core/BfpLayoutTest.cpp
  Core/Kernels/BfpPackHalvesTest.cpp
  Core/Kernels/VocabularyAvx2Test.cpp
  Core/Kernels/VocabularyAvx512Test.cpp
  Core/TensixPathsTest.cpp)
set(BIRSIM_RUNTIME_TEST_SOURCES
  Runtime/RuntimeTest.cpp
  Runtime/AbiTableTest.cpp)
# With lib/Runtime/Runtime.cpp compiled in: the path it selects is the
# runtime's (every output between guard bytes on every path).
set(BIRSIM_RUNTIME_PATHS_TEST_SOURCES
  Runtime/GuardTest.cpp)

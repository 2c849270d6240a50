//===- FuzzBfpUnpack.cpp - BFP unpack of arbitrary bytes ------------------===//
//
// libFuzzer target (utils/fuzz.sh): any bytes are a valid packed BFP tile
// (every exponent and datum decodes); the vector path must equal the
// portable one and never read or write outside the buffers.
//
//===----------------------------------------------------------------------===//
#include "birsim/Core/Bfp.h"
#include "Kernels/Kernels.h" // lib/Core, private

#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace birsim::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  int format = data[0] % kNumBfpFormats;
  size_t tileBytes = lookupBfpFormat(format)->tileBytes;
  size_t tiles = (size - 1) / tileBytes;
  // Exactly the tiles' bytes, so that any overread is ASan's to report.
  std::vector<uint8_t> packed(data + 1, data + 1 + tiles * tileBytes);
  std::vector<uint32_t> best(tiles * kBfpTileValues),
      portable(tiles * kBfpTileValues);
  Isa saved = activeIsa();
  if (!bfpUnpack(format, packed.data(), tiles, kBfpTileSide, kBfpTileSide, 0, best.data()).ok())
    std::abort();
  selectIsa(Isa::portable);
  if (!bfpUnpack(format, packed.data(), tiles, kBfpTileSide, kBfpTileSide, 0, portable.data()).ok())
    std::abort();
  selectIsa(saved);
  if (best != portable)
    std::abort();
  return 0;
}

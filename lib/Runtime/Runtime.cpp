//===- Runtime.cpp - birsim C runtime ABI over the core -------------------===//
#include "birsim/Runtime/Runtime.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Simd.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace birsim::core;

static thread_local std::string tLastError;

/// Records the status text and returns the C status code.
static int report(const Status &status) {
  if (!status.ok())
    tLastError = status.message();
  return int(status.code);
}

static int report(ErrorCode code, const char *detail) {
  return report(Status::error(code, 0, 0, detail));
}

extern "C" {

int birsim_cast_copy_or_accumulate(int op, void *dst, const void *src,
                                   int dtype) {
  return report(castCopyOrAccumulate(op, dst, src, dtype));
}

int birsim_accumulate(int op, void *dst, const void *src, int dtype,
                      size_t count) {
  return report(accumulate(op, dst, src, dtype, count));
}

int birsim_scatter_accumulate(int op, void *dst, size_t dst_count,
                              const void *src, const int64_t *indices,
                              size_t count, int dtype) {
  return report(
      scatterAccumulate(op, dst, dst_count, src, indices, count, dtype));
}

int birsim_alu_op_to_memory_reduction(int alu_op, int *op_out) {
  if (!op_out)
    return report(ErrorCode::invalidArgument, "null op_out");
  MemoryReductionOp op;
  if (Status s = aluOpToMemoryReduction(alu_op, op))
    return report(s);
  *op_out = int(op);
  return BIRSIM_OK;
}

int birsim_collective_reduce(int alu_op, float *acc, const float *x,
                             size_t count) {
  static_assert(sizeof(float) == sizeof(uint32_t), "fp32 is 32 bits");
  return report(collectiveReduce(alu_op, reinterpret_cast<uint32_t *>(acc),
                                 reinterpret_cast<const uint32_t *>(x), count));
}

int birsim_cast(int src_dtype, const void *src, int dst_dtype, void *dst,
                size_t count, unsigned fp8_config) {
  return report(castBuffer(src_dtype, src, dst_dtype, dst, count, fp8_config));
}

const char *birsim_dtype_name(int dtype) {
  const DtypeInfo *info = lookupDtype(dtype);
  return info ? info->name : nullptr;
}

size_t birsim_dtype_size(int dtype) {
  const DtypeInfo *info = lookupDtype(dtype);
  return info ? info->bytes : 0;
}

const char *birsim_last_error(void) { return tLastError.c_str(); }

int birsim_set_num_threads(int n) { return setNumThreads(n); }

size_t birsim_bfp_tile_bytes(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->tileBytes : 0;
}

uint32_t birsim_bfp_mantissa_bits(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->mantissaBits : 0;
}

int birsim_bfp_pack_tiles(int format, const float *tiles, size_t tile_count,
                          void *out) {
  return report(bfpPackTiles(format, reinterpret_cast<const uint32_t *>(tiles),
                             tile_count, out));
}

int birsim_bfp_unpack_tiles(int format, const void *packed, size_t tile_count,
                            float *tiles_out) {
  return report(bfpUnpackTiles(format, packed, tile_count,
                               reinterpret_cast<uint32_t *>(tiles_out)));
}

/// The value-level calls have no status: an unknown format returns 0 and
/// sets birsim_last_error().
static const BfpFormatInfo *valueFormat(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  if (!f)
    report(Status::error(ErrorCode::invalidFormat, format));
  return f;
}

uint8_t birsim_bfp_convert_float_bits(int format, uint32_t input_bits,
                                      uint32_t shared_exp) {
  const BfpFormatInfo *f = valueFormat(format);
  if (!f)
    return 0;
  BfpTies ties;
  uint8_t datum = bfpEncode(*f, input_bits, shared_exp, ties);
  bfpAddTies(ties);
  return datum;
}

uint32_t birsim_bfp_convert_datum(int format, uint8_t datum,
                                  uint32_t shared_exp) {
  const BfpFormatInfo *f = valueFormat(format);
  return f ? bfpDecode(*f, datum, shared_exp) : 0;
}

uint8_t birsim_bfp_block_shared_exponent(int format,
                                         const uint32_t *block_bits) {
  const BfpFormatInfo *f = valueFormat(format);
  if (!f)
    return 0;
  if (!block_bits) {
    report(ErrorCode::invalidArgument, "null block_bits");
    return 0;
  }
  return bfpSharedExponent(*f, block_bits);
}

void birsim_bfp_tie_counters(uint64_t *ties_seen, uint64_t *ties_rounded_up) {
  bfpTieCounters(ties_seen, ties_rounded_up);
}

void birsim_bfp_tie_counters_reset(void) { bfpTieCountersReset(); }

void birsim_check_status(int status, const char *what) {
  if (status == BIRSIM_OK)
    return;
  std::fflush(stdout); // keep what the program printed before the abort
  std::fprintf(stderr, "birsim runtime error in %s: %s\n",
               what ? what : "<unknown>", birsim_last_error());
  std::fflush(stderr);
  std::abort();
}

} // extern "C"

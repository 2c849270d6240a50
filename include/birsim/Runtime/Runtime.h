/*===- Runtime.h - birsim C runtime ABI ---------------------------*- C -*-===*
 *
 * The C entry points of libbirsim_runtime.so over the bit-exact core. Status
 * 0 is success, a negative value an error (BIRSIM_E*); birsim_last_error()
 * then holds the message. On error no destination byte is written. Element
 * values are raw little-endian bit patterns of their dtype.
 *
 *===----------------------------------------------------------------------===*/
#ifndef BIRSIM_RUNTIME_RUNTIME_H
#define BIRSIM_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define BIRSIM_RT_API __attribute__((visibility("default")))
#else
#define BIRSIM_RT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (birsim::ErrorCode). */
#define BIRSIM_OK 0
#define BIRSIM_EINVAL (-1)         /* null buffer, bad config */
#define BIRSIM_EUNKNOWN_DTYPE (-2) /* "Unknown dtype" */
#define BIRSIM_EUNSUPPORTED_DTYPE                                              \
  (-3)                             /* "cast_accumulate: unsupported dtype" */
#define BIRSIM_EALU_OP (-4)        /* AluOpType2MemoryReduction assertion */
#define BIRSIM_ECOLLECTIVE_OP (-5) /* doReduction assertion */
#define BIRSIM_EINDEX (-6)         /* scatter index out of range */
#define BIRSIM_ENOT_CASTABLE (-7)  /* packed dtype in the cast engine */
#define BIRSIM_EOP (-8)            /* not a MemoryReductionOp */
#define BIRSIM_EFORMAT (-9)        /* not a BFP format */
#define BIRSIM_ETILE_SHAPE (-10)   /* a BFP tile shape tt-metal rejects */
#define BIRSIM_ENOT_DMA_DTYPE (-11) /* a dtype the DMA does not compute on */

/* birsim::MemoryReductionOp (include/birsim/Core/MemoryReductionOps.def) */
#define BIRSIM_OP_COPY 0
#define BIRSIM_OP_ADD 1
#define BIRSIM_OP_MIN 2
#define BIRSIM_OP_MAX 3

/* BFP formats (include/birsim/Core/BfpFormats.def) */
#define BIRSIM_BFP8_B 0
#define BIRSIM_BFP4_B 1
#define BIRSIM_BFP8_A 2
#define BIRSIM_BFP4_A 3
#define BIRSIM_BFP2_B 4
#define BIRSIM_BFP2_A 5
/* MX formats: OCP microscaling tiles as tt-metal packs them (32-value
 * blocks, an E8M0 scale byte each; docs/Semantics.md section 5, MX tiles),
 * taken by every tile and matrix entry point at BIRSIM_BFP_HOST. The value
 * calls read an MX format's code as an element, the shared exponent as the
 * scale byte, and a block as 32 values. */
#define BIRSIM_MXFP8_E5M2 6
#define BIRSIM_MXFP8_E4M3 7
#define BIRSIM_MXFP6_E3M2 8
#define BIRSIM_MXFP6_E2M3 9
#define BIRSIM_MXFP4 10
#define BIRSIM_MXINT8 11
#define BIRSIM_MXINT4 12
#define BIRSIM_MXINT2 13

/* FP8ConversionConfig: bit 0 saturate, byte 1 NaN-suppress. */
#define BIRSIM_FP8_SATURATE 0x0001u
#define BIRSIM_FP8_NAN_SUPPRESS 0xFF00u
/* The FP8 config flags by number: the name ("saturate", "nan_suppress"),
 * its bits in *bits when bits is not NULL; NULL past the last. */
BIRSIM_RT_API const char *birsim_fp8_config_flag(int index, unsigned *bits);

BIRSIM_RT_API int birsim_cast_copy_or_accumulate(int op, void *dst,
                                                 const void *src, int dtype);
BIRSIM_RT_API int birsim_accumulate(int op, void *dst, const void *src,
                                    int dtype, size_t count);
/* out = dst op src (copy: out = src), the numerics of birsim_accumulate,
 * without first copying dst into out: out may be dst or src exactly and
 * overlaps neither otherwise (BIRSIM_EINVAL); dst and src are only read. */
BIRSIM_RT_API int birsim_accumulate_into(int op, void *out, const void *dst,
                                         const void *src, int dtype,
                                         size_t count);
BIRSIM_RT_API int birsim_scatter_accumulate(int op, void *dst, size_t dst_count,
                                            const void *src,
                                            const int64_t *indices,
                                            size_t count, int dtype);
BIRSIM_RT_API int birsim_alu_op_to_memory_reduction(int alu_op, int *op_out);
BIRSIM_RT_API int birsim_collective_reduce(int alu_op, float *acc,
                                           const float *x, size_t count);
BIRSIM_RT_API int birsim_cast(int src_dtype, const void *src, int dst_dtype,
                              void *dst, size_t count, unsigned fp8_config);

/* The DMA engine's arithmetic across dtypes (docs/Semantics.md section 8):
 * operands widened to fp32, combined by the fp32 core (add, min or max),
 * narrowed to the destination's dtype under fp8_config, to nearest even
 * (BIRSIM_ROUND_NEAREST_EVEN) or stochastically from `seed`
 * (BIRSIM_ROUND_STOCHASTIC: reproducible, not the device's bits). Dtypes
 * outside DmaDtypes.def are BIRSIM_ENOT_DMA_DTYPE; nothing is written on
 * error. */
#define BIRSIM_ROUND_NEAREST_EVEN 0
#define BIRSIM_ROUND_STOCHASTIC 1
/* dst = srcs[0] op srcs[1] op ... (1 to 16 sources, in order); dst may be
 * one of the sources exactly. */
BIRSIM_RT_API int birsim_dma_compute(int op, const void *const *srcs,
                                     const int *src_dtypes, size_t num_srcs,
                                     void *dst, int dst_dtype, size_t count,
                                     unsigned fp8_config, int rounding,
                                     uint64_t seed);
/* dst op= src across dtypes; copy is birsim_cast. */
BIRSIM_RT_API int birsim_accumulate_mixed(int op, void *dst, int dst_dtype,
                                          const void *src, int src_dtype,
                                          size_t count, unsigned fp8_config,
                                          int rounding, uint64_t seed);
/* dst[indices[i]] op= src[i] across dtypes, in the order of i. */
BIRSIM_RT_API int birsim_scatter_accumulate_mixed(
    int op, void *dst, size_t dst_count, int dst_dtype, const void *src,
    int src_dtype, const int64_t *indices, size_t count, unsigned fp8_config,
    int rounding, uint64_t seed);
/* NKI's name of a dtype the DMA computes on ("float8_e4m3"), else NULL. */
BIRSIM_RT_API const char *birsim_nki_dtype_name(int dtype);

BIRSIM_RT_API const char *birsim_dtype_name(int dtype); /* NULL when unknown */
BIRSIM_RT_API size_t birsim_dtype_size(int dtype);      /* 0 when unknown */

/* The tables behind the ABI, for tools and bindings that must not keep
 * copies: bir::Dtype rows are numbered 0..birsim_dtype_count()-1, and the
 * name queries return NULL past the last row of their table. */
struct birsim_dtype_info {
  const char *name;      /* bir::Dtype2string: "float8e4" */
  const char *mlir_type; /* the MLIR element type: "f8E4M3", "!birsim.float32r" */
  const char *kind;      /* how the cast engine reads the bits: "unsigned_int",
                            "signed_int", "float", "float32", "float32r",
                            "packed" (copy only) */
  const char *reduction; /* how add/min/max reduce it: "none" (rejected),
                            "fp8", "narrow16", "int32", "int64", "float32" */
  uint32_t bytes;        /* element stride */
  uint32_t exponent_bits, mantissa_bits; /* float formats; 0 otherwise */
  int32_t bias;
};
BIRSIM_RT_API int birsim_dtype_count(void);

/* Every function this header exports, as rows numbered
 * 0..birsim_function_count()-1 (include/birsim/Runtime/RuntimeFunctions.def),
 * so that bindings build their signatures from the runtime itself. A C
 * type is given by its spelling here and by what a binding needs: kind
 * "void", "signed", "unsigned" (an integer of `bytes` bytes), "float"
 * (a binary floating point type of `bytes` bytes), "string" (const char *)
 * or "pointer" (any other pointer, function pointers too). */
struct birsim_function_param {
  const char *c_type; /* "const void *", "size_t", ... */
  const char *role;   /* RuntimeFunctions.def's role ("Dst", "Count", ...);
                         "" for a result */
  const char *kind;
  uint32_t bytes;
};
struct birsim_function_info {
  const char *name;
  struct birsim_function_param result;
  const struct birsim_function_param *params; /* param_count of them */
  uint32_t param_count;
  uint32_t lowered; /* 1: --convert-birsim-to-llvm emits calls to it */
  uint32_t counted; /* 1: the fidelity counters examine its values */
};
BIRSIM_RT_API int birsim_function_count(void);
/* Fills *out as birsim_dtype_info does: 0, or BIRSIM_EINVAL for an index
 * past the last row or a null or too small out. */
BIRSIM_RT_API int birsim_function_info(int index,
                                       struct birsim_function_info *out,
                                       size_t out_size);
/* Fills *out (out_size = sizeof *out; fields are only ever appended, and a
 * caller's smaller, older struct is filled up to its size): 0, or
 * BIRSIM_EUNKNOWN_DTYPE, or BIRSIM_EINVAL for a null or too small out. */
BIRSIM_RT_API int birsim_dtype_info(int dtype, struct birsim_dtype_info *out,
                                    size_t out_size);
BIRSIM_RT_API const char *birsim_memory_reduction_op_name(int op);
BIRSIM_RT_API const char *birsim_alu_op_type_name(int alu_op);
BIRSIM_RT_API const char *birsim_bfp_format_name(int format);
/* "fp32" ("b" formats), "fp16" ("a") or "e8m0" (MX); NULL for an unknown
 * format. */
BIRSIM_RT_API const char *birsim_bfp_exponent_kind(int format);
BIRSIM_RT_API const char *
birsim_last_error(void); /* thread-local text of the last error */
/* The status and birsim_last_error() an entry point gives when its
 * destination overlaps a source against the aliasing rule
 * (docs/Decisions.md D18): the elementwise calls' (exact_allowed: the same
 * elements allowed, a partial overlap not) or the scatter's (any overlap),
 * for callers that find the overlap first, as the Python package does on
 * strided views. */
BIRSIM_RT_API int birsim_overlap_error(int exact_allowed);
BIRSIM_RT_API size_t birsim_bfp_tile_bytes(int format);
/* A datum's magnitude bits (BFP), an MX float element's mantissa bits, an
 * MX integer's fraction bits (bits - 2); 0 for an unknown format. */
BIRSIM_RT_API uint32_t birsim_bfp_mantissa_bits(int format);
/* The most significant bits (hidden bit included) a decoded value of the
 * format has: a BFP datum's magnitude bits (bfp8 7, bfp4 3, bfp2 1), an MX
 * float element's mantissa and hidden bit, an MX integer's magnitude bits;
 * 0 for an unknown format. birsim_tensix_useful_phases' operand bound. */
BIRSIM_RT_API unsigned birsim_bfp_significant_bits(int format);
/* A datum's or element's storage bits in a packed tile (8, 4 or 2; an MX
 * fp6 element takes 8); 0 for an unknown format. */
BIRSIM_RT_API uint32_t birsim_bfp_datum_bits(int format);
BIRSIM_RT_API int birsim_bfp_pack_tiles(int format, const float *tiles,
                                        size_t tile_count, void *out);
BIRSIM_RT_API int birsim_bfp_unpack_tiles(int format, const void *packed,
                                          size_t tile_count, float *tiles_out);
/* tt-metal's host BFP conversion (docs/Semantics.md section 5 [tt-metal]):
 * every format, the tile shapes of include/birsim/Core/BfpTileShapes.def
 * (32x32, 16x32, 32x16, 16x16, 8/4/2/1 x 32, 8/4/2/1 x 16), tiles
 * row-major inside or in face order, and these input element types, by
 * bir::Dtype number: 16 float32, 12 bfloat16 (its bits << 16), 1 int8,
 * 0 uint8, 10 uint16, 15 int32, 14 uint32 (by value, rounded to nearest
 * even). Packed tiles are the packer's: one exponent byte per 16-value
 * block zero-padded to a multiple of 16 bytes, then the datums as
 * little-endian 32-bit words. Errors: a status, birsim_last_error(), and
 * nothing written; BIRSIM_ETILE_SHAPE for a shape tt-metal rejects,
 * BIRSIM_EINVAL for an input type, a flag an entry point does not take, or
 * a matrix that is not whole tiles. */
#define BIRSIM_BFP_FACES 1u /* pack input / unpack output in face order
                               (tt-metal row_major_* = false) */
#define BIRSIM_BFP_TRANSPOSE 2u /* matrix forms only: ttnn's transposed
                                   tilize (tile heights 16 and 32) */
/* Pack: per block the shared exponent Emax or Emax - 1, whichever gives the
 * smaller squared error in double (tt-metal PR #57298, unmerged; bfp8_b and
 * bfp4_b from float32 or bfloat16 at BIRSIM_BFP_HOST; docs/Semantics.md
 * section 5, the exponent search). Unpack accepts it and decodes as ever. */
#define BIRSIM_BFP_EXP_SEARCH 4u
/* Pack output / unpack input with each tile at its DRAM page stride,
 * birsim_bfp_page_bytes(format, rows, cols, 32 or 64): the tile's bytes,
 * then zeros; every form, one of the two (docs/Semantics.md section 5). */
#define BIRSIM_BFP_PAGE32 8u  /* Wormhole's DRAM alignment */
#define BIRSIM_BFP_PAGE64 16u /* Blackhole's */
/* The BFP flags by number (include/birsim/Core/BfpFlags.def): the name
 * ("faces", "transpose"), its bits in *bits when bits is not NULL; NULL
 * past the last. */
BIRSIM_RT_API const char *birsim_bfp_flag(int index, unsigned *bits);
/* The DRAM page alignment BFP flag `index` selects (BfpFlags.def's
 * PageBytes), 0 for a flag that selects none or no flag. */
BIRSIM_RT_API unsigned birsim_bfp_flag_page_bytes(int index);
/* Where a BFP conversion runs (include/birsim/Core/BfpSites.def;
 * docs/Semantics.md section 5, "The device's bytes" [ttsim]). */
#define BIRSIM_BFP_HOST 0 /* tt-metal's host packer: birsim_bfp_pack's bytes */
#define BIRSIM_BFP_FP32_DEST                                                   \
  1 /* Tensix packer, fp32 Dest, one rounding (0x106/0x107/0x10F) */
#define BIRSIM_BFP_FP32_DEST_E8M6                                              \
  2 /* fp32 Dest through the bfp8 intermediate (0x166/0x167) */
#define BIRSIM_BFP_BF16_DEST 3      /* 16-bit bf16 Dest (0x56/0x57/0x5F) */
#define BIRSIM_BFP_BF16_DEST_E8M6 4 /* (0x66/0x67) */
#define BIRSIM_BFP_FP16_DEST 5      /* fp16 Dest, bfp8_b only (0x26) */
/* The sites by number: "host", "fp32_dest", ...; NULL past the last. */
BIRSIM_RT_API const char *birsim_bfp_site_name(int where);
/* Bytes the packer writes per tile of this shape; 0 for an unknown format
 * or a shape tt-metal rejects (for an MX format, 1x16). */
BIRSIM_RT_API size_t birsim_bfp_packed_tile_bytes(int format,
                                                  uint32_t tile_rows,
                                                  uint32_t tile_cols);
/* A tile's stride in a DRAM page: packed bytes rounded up to `alignment`
 * (0: none, 32, 64); 0 for an unknown format, a rejected shape or another
 * alignment. */
/* Per-tile mixed BFP (DeepSeek-V3's compressed tensors, tt-metal PR
 * #39116; docs/Semantics.md section 5): a rows x cols matrix (leading
 * dimensions folded into rows; both multiples of 32) in 32x32 tiles in
 * row-major tile order, each packed as birsim_bfp_pack_matrix packs it in
 * the format its code names (0 bfp8_b, 1 bfp4_b, 2 bfp2_b, 3 bfp0: an
 * all-zero tile that stores no bytes); codes are 2 bits a tile, four a
 * byte, low bits first; the tiles back to back with no padding. flags:
 * BIRSIM_BFP_TRANSPOSE only. birsim_bfp_mixed_bytes gives the packed size
 * (0 for a matrix that is not whole tiles). */
/* Per-tile codes, one a byte (birsim_bfp_mixed_code_name's numbers), to the
 * packed codes the mixed entry points take (2 bits a tile, four a byte,
 * low bits first, unused bits zero); a code with no name is an error and
 * writes nothing. */
BIRSIM_RT_API int birsim_bfp_mixed_pack_codes(const uint8_t *tile_codes,
                                              size_t tiles, uint8_t *codes);
/* The inverse: `tiles` codes, one a byte. */
BIRSIM_RT_API int birsim_bfp_mixed_unpack_codes(const uint8_t *codes,
                                                size_t tiles,
                                                uint8_t *tile_codes);
/* The bytes of `tiles` tiles' packed codes. */
BIRSIM_RT_API size_t birsim_bfp_mixed_code_bytes(size_t tiles);
BIRSIM_RT_API size_t birsim_bfp_mixed_bytes(const uint8_t *codes, size_t rows,
                                            size_t cols);
BIRSIM_RT_API int birsim_bfp_pack_mixed(int src_dtype, const void *src,
                                        size_t rows, size_t cols,
                                        unsigned flags, const uint8_t *codes,
                                        void *out);
/* The inverse: float32 values, +0 in bfp0 tiles. */
BIRSIM_RT_API int birsim_bfp_unpack_mixed(const void *packed, size_t rows,
                                          size_t cols, unsigned flags,
                                          const uint8_t *codes, float *out);
/* The same with the packed side's length checked against the codes
 * (BIRSIM_EINVAL, nothing written, where it differs): the lowering's calls. */
BIRSIM_RT_API int birsim_bfp_pack_mixed_checked(int src_dtype, const void *src,
                                                size_t rows, size_t cols,
                                                unsigned flags,
                                                const uint8_t *codes,
                                                void *out, size_t out_bytes);
BIRSIM_RT_API int birsim_bfp_unpack_mixed_checked(const void *packed,
                                                  size_t packed_bytes,
                                                  size_t rows, size_t cols,
                                                  unsigned flags,
                                                  const uint8_t *codes,
                                                  float *out);
/* The code names ("bfp8_b", "bfp4_b", "bfp2_b", "bfp0") and the metric
 * names ("max_abs", "mean_abs", "pcc") by number; NULL past the last. */
BIRSIM_RT_API const char *birsim_bfp_mixed_code_name(int code);
BIRSIM_RT_API const char *birsim_bfp_mixed_metric_name(int metric);
#define BIRSIM_MIXED_MAX_ABS 0 /* the assigner's metrics */
#define BIRSIM_MIXED_MEAN_ABS 1
#define BIRSIM_MIXED_PCC 2
/* The assigner: each tile gets the cheapest code allowed by `formats` (bit
 * c allows code c) whose pack and unpack meets `bound` under `metric`
 * (largest or mean absolute error at most `bound`, Pearson correlation at
 * least `bound`; bfp0 by mean absolute error at most `zero_bound`), else
 * the costliest allowed; in double. Writes (tiles + 3) / 4 bytes of codes,
 * unused bits zero. */
BIRSIM_RT_API int birsim_bfp_assign_mixed(int metric, double bound,
                                          double zero_bound, unsigned formats,
                                          int src_dtype, const void *src,
                                          size_t rows, size_t cols,
                                          unsigned flags, uint8_t *codes);
BIRSIM_RT_API size_t birsim_bfp_page_bytes(int format, uint32_t tile_rows,
                                           uint32_t tile_cols,
                                           uint32_t alignment);
/* The same stride into *bytes, or the rule the query breaks (an unknown
 * format or tile shape, an alignment no BIRSIM_BFP_PAGE* flag selects) as a
 * status and birsim_last_error(). */
BIRSIM_RT_API int birsim_bfp_page_bytes_checked(int format, uint32_t tile_rows,
                                                uint32_t tile_cols,
                                                uint32_t alignment,
                                                size_t *bytes);
/* tt-metal pack_as_bfp_tiles<format, T>: tile_count tiles of src_dtype
 * values -> the packed tiles; flags: BIRSIM_BFP_FACES. */
BIRSIM_RT_API int birsim_bfp_pack(int format, int src_dtype, const void *src,
                                  size_t tile_count, uint32_t tile_rows,
                                  uint32_t tile_cols, unsigned flags,
                                  void *out);
/* tt-metal unpack_bfp{8,4,2}_tiles_into_float_vec; flags:
 * BIRSIM_BFP_FACES. */
BIRSIM_RT_API int birsim_bfp_unpack(int format, const void *packed,
                                    size_t tile_count, uint32_t tile_rows,
                                    uint32_t tile_cols, unsigned flags,
                                    float *out);
/* A row-major rows x cols matrix (whole tiles each way; leading dimensions
 * folded into rows) -> its tiles in row-major tile order, in one pass:
 * convert_layout(LIN_ROW_MAJOR -> TILED_NFACES) then pack_as_bfp_tiles(
 * row_major_input = false); flags: BIRSIM_BFP_TRANSPOSE. */
BIRSIM_RT_API int birsim_bfp_pack_matrix(int format, int src_dtype,
                                         const void *src, size_t rows,
                                         size_t cols, uint32_t tile_rows,
                                         uint32_t tile_cols, unsigned flags,
                                         void *out);
/* The inverse of birsim_bfp_pack_matrix; flags: BIRSIM_BFP_TRANSPOSE. */
BIRSIM_RT_API int birsim_bfp_unpack_matrix(int format, const void *packed,
                                           size_t rows, size_t cols,
                                           uint32_t tile_rows,
                                           uint32_t tile_cols, unsigned flags,
                                           float *out);
/* birsim_bfp_pack / _pack_matrix / _unpack / _unpack_matrix with where the
 * conversion runs: a Dest path takes the Dest's element type as src_dtype
 * (float32, or bfloat16 / float16 for the 16-bit Dests), writes the "b"
 * formats it has (no bfp2 through the bfp8 intermediate, bfp8_b only from
 * fp16) in host-layout tiles; unpack at a device site decodes as the
 * unpacker. BIRSIM_BFP_HOST is the host call itself. */
BIRSIM_RT_API int birsim_bfp_pack_at(int where, int format, int src_dtype,
                                     const void *src, size_t tile_count,
                                     uint32_t tile_rows, uint32_t tile_cols,
                                     unsigned flags, void *out);
BIRSIM_RT_API int birsim_bfp_pack_matrix_at(int where, int format,
                                            int src_dtype, const void *src,
                                            size_t rows, size_t cols,
                                            uint32_t tile_rows,
                                            uint32_t tile_cols, unsigned flags,
                                            void *out);
BIRSIM_RT_API int birsim_bfp_unpack_at(int where, int format,
                                       const void *packed, size_t tile_count,
                                       uint32_t tile_rows, uint32_t tile_cols,
                                       unsigned flags, float *out);
BIRSIM_RT_API int birsim_bfp_unpack_matrix_at(int where, int format,
                                              const void *packed, size_t rows,
                                              size_t cols, uint32_t tile_rows,
                                              uint32_t tile_cols,
                                              unsigned flags, float *out);
/* Which elements differ: mask[i] = 1 where the tiles packed at `where` (a
 * device site), decoded with the unpacker's rule, give another float32 bit
 * pattern than the host packer's tiles of the same values decoded as
 * birsim_bfp_unpack does (16-bit inputs widened exactly to float32 for the
 * host; NaN against NaN counts as equal), in the input's element order; the
 * number of them in *count; mask may be null. */
BIRSIM_RT_API int birsim_bfp_device_diff(int where, int format, int src_dtype,
                                         const void *src, size_t tile_count,
                                         uint32_t tile_rows,
                                         uint32_t tile_cols, unsigned flags,
                                         uint8_t *mask, uint64_t *count);
BIRSIM_RT_API uint8_t birsim_bfp_convert_float_bits(int format,
                                                    uint32_t input_bits,
                                                    uint32_t shared_exp);
BIRSIM_RT_API uint32_t birsim_bfp_convert_datum(int format, uint8_t datum,
                                                uint32_t shared_exp);
BIRSIM_RT_API uint8_t
birsim_bfp_block_shared_exponent(int format, const uint32_t *block_bits);
BIRSIM_RT_API void birsim_bfp_tie_counters(uint64_t *ties_seen,
                                           uint64_t *ties_rounded_up);
BIRSIM_RT_API void birsim_bfp_tie_counters_reset(void);

/* tt-metal's FP8 E4M3 conversions as named policies of one cast
 * (include/birsim/Core/TtFp8Policies.def; docs/Semantics.md section 6). */
#define BIRSIM_TT_FP8_HOST 0       /* tt-metal float8.cpp (@42a4235) */
#define BIRSIM_TT_FP8_OCP_E4M3FN 1 /* torch.float8_e4m3fn */
#define BIRSIM_TT_FP8_BLACKHOLE                                                \
  2 /* the Blackhole packer's Lf8 from fp32 Dest (ttsim 0x11A), its         \
       unpacker's decode */
/* The policies by number: "ttmetal_host", ...; NULL past the last. */
BIRSIM_RT_API const char *birsim_tt_fp8_policy_name(int policy);
/* `count` float32 values to E4M3 codes, and codes to float32 values, under
 * `policy`: 0, or a status with the message (nothing written). */
BIRSIM_RT_API int birsim_tt_fp8_encode(int policy, const float *src,
                                       size_t count, uint8_t *dst);
BIRSIM_RT_API int birsim_tt_fp8_decode(int policy, const uint8_t *src,
                                       size_t count, float *dst);

/* The Tensix FPU's elementwise ops and the packer's output
 * (include/birsim/Core/Tensix.def; docs/Semantics.md section 7). */
#define BIRSIM_TENSIX_WORMHOLE 0
#define BIRSIM_TENSIX_BLACKHOLE 1
#define BIRSIM_TENSIX_DEST_FP32 0 /* 32-bit Dest: float32 values */
#define BIRSIM_TENSIX_DEST_BF16 1 /* 16-bit Dest, 8-bit exponent: bfloat16 bit patterns */
#define BIRSIM_TENSIX_DEST_FP16 2 /* 16-bit Dest, 5-bit exponent: float16 bit patterns (exponent 31 finite) */
#define BIRSIM_TENSIX_SRC_TF32 0  /* Src keeps 10 fraction bits */
#define BIRSIM_TENSIX_SRC_BF16 1  /* Src keeps 7 (Float32, Float16_b, Bfp8_b, Bfp4_b, Bfp2_b tiles) */
#define BIRSIM_TENSIX_SRC_FP16 2  /* 5-bit exponent, 10 fraction bits; both operands */
#define BIRSIM_TENSIX_MUL 0
#define BIRSIM_TENSIX_ADD 1
#define BIRSIM_TENSIX_SUB 2
#define BIRSIM_TENSIX_LOFI 0x1u   /* fidelity phases: bit p runs phase p, in ascending order */
#define BIRSIM_TENSIX_HIFI2 0x3u
#define BIRSIM_TENSIX_HIFI3 0x7u
#define BIRSIM_TENSIX_HIFI4 0xFu
/* dest[i] = the Dest value after `op` on a[i] (SrcA) and b[i] (SrcB), as
 * mul_tiles / add_tiles / sub_tiles run it (mul: one ELWMUL per phase in
 * `phases`; add, sub: phases must be LOFI). a and b are float32 values read
 * into Src as the unpacker writes a Float32 tile in src_format (values not
 * representable there are truncated as the unpacker truncates). dest holds
 * count values of dest_kind's type; accumulate = 0: Dest starts at zero
 * (mul) or is overwritten (add, sub); 1: the op adds into dest's values
 * (a C boolean here and below: 0 or 1, any other value BIRSIM_EINVAL).
 * 0, or a status with the message (nothing written). dest may be a or b
 * exactly with a 32-bit Dest, and overlaps neither otherwise. */
BIRSIM_RT_API int birsim_tensix_eltwise(int arch, int op, unsigned phases,
                                        int dest_kind, int src_format,
                                        const float *a, const float *b,
                                        size_t count, void *dest,
                                        int accumulate);
/* The packer: count Dest values (dest_kind's type) to out_dtype (float32,
 * bfloat16, float16 by their birsim dtype numbers) as PACR converts them;
 * l1_accumulate = 1 adds them into out's values with Pack_L1_Acc's rule
 * for out_dtype (0: overwrites them). */
BIRSIM_RT_API int birsim_tensix_pack(int arch, int dest_kind, const void *dest,
                                     size_t count, int out_dtype, void *out,
                                     int l1_accumulate);
/* The phases of `phases` whose product is zero for every operand with at
 * most a_bits (SrcA) and b_bits (SrcB) significant bits, hidden bit
 * included: bfp8 7, bfp4 3, bfp2 1, bf16 8, tf32 and fp16 11. */
BIRSIM_RT_API unsigned birsim_tensix_idle_phases(unsigned phases,
                                                 unsigned a_bits,
                                                 unsigned b_bits);
/* dest (m x n, dest_kind's type, row-major) = in0 (m x k, row-major) x in1
 * (k x n, row-major) as matmul_tiles runs it on 32x32 tiles: in0 is SrcB,
 * in1 is SrcA, each read into Src as the unpacker writes a Float32 tile in
 * its Src format; for each K tile, the phases of `phases` ascending, the
 * MVMULs in the LLK's order. m, n, k multiples of 32. accumulate = 0: Dest
 * starts at zero; 1: the product adds into dest's values. 0, or a status
 * with the message (nothing written); dest overlaps neither input; a
 * buffer of 0 elements may be NULL. */
BIRSIM_RT_API int birsim_tensix_matmul(int arch, unsigned phases,
                                       int dest_kind, int in0_src_format,
                                       int in1_src_format, const float *in0,
                                       const float *in1, size_t m, size_t k,
                                       size_t n, void *dest, int accumulate);
/* The phases of `phases` whose products can be non-zero for a matmul's
 * operands whose Src values have at most in0_bits (SrcB) and in1_bits
 * (SrcA) significant bits (hidden bit included: 11 for TF32, 8 for bf16, 7
 * for bfp8, 3 for bfp4, 1 for bfp2 as the device unpacker decodes them).
 * For mul_tiles, where in0 is SrcA, pass them swapped. Dropping the others
 * is exact for mul_tiles into a zeroed Dest while no product's exponent
 * passes Dest's largest, not always for a matmul (docs/Semantics.md
 * section 7, "Fidelity phases"). */
BIRSIM_RT_API unsigned birsim_tensix_useful_phases(unsigned phases,
                                                   unsigned in0_bits,
                                                   unsigned in1_bits);
/* The significant bits (hidden bit included) a Src format class keeps:
 * 11 for TF32 and FP16, 8 for BF16; 0 for an unknown class (Tensix.def). */
BIRSIM_RT_API unsigned birsim_tensix_src_bits(int src_format);
/* The dtype (BIRSIM_DTYPE_*) whose storage holds a Dest kind's values:
 * float32, bfloat16, or float16 bit patterns; -1 for an unknown kind. */
BIRSIM_RT_API int birsim_tensix_dest_dtype(int dest_kind);
/* Tensix.def's names by table and number: table 0 architectures, 1 ops,
 * 2 Dest kinds, 3 Src formats, 4 fidelities (number = phase set); NULL for
 * other numbers. */
BIRSIM_RT_API const char *birsim_tensix_name(int table, int number);

/* The Tensix SFPU, as Tenstorrent's simulator ttsim defines it
 * (docs/Semantics.md section 9). Runs an SFPU program over `count` Dest
 * values of dest_kind (BIRSIM_TENSIX_DEST_*), as the LLK's unary SFPU loop
 * runs it. The text has an optional "init:" section, run once, and a
 * "body:" section (or no header: all body), run once per group of 32 lanes
 * (lane i = element 32*g + i; the missing lanes of a last partial group
 * read 0 and are not written back); LRegs and the condition-code state
 * persist from init through every group, from ttsim's reset values. One
 * instruction per line: the mnemonic as tt-metal's TTI_ macro names it,
 * without TTI_ (SFPLOAD, SFPLOADI, SFPMAD, SFPSTORE, ...), and its operands
 * as integers (decimal or 0x hex) in the macro's order (ckernel_ops.h),
 * separated by commas or spaces; '#' starts a comment. SFPLOAD/SFPSTORE
 * with address 0 read/write the current group's values in the format the
 * instruction's mode selects, from and to Dest stored as dest_kind.
 * dest_out may be dest_in. Returns 0, or a negative status with
 * birsim_last_error() naming the line and the problem (unknown mnemonic,
 * operand count or range, an instruction ttsim refuses or the architecture
 * lacks), writing nothing. The program is parsed once per call. */
BIRSIM_RT_API int birsim_tensix_sfpu_run(int arch, const char *program,
                                         int dest_kind, const void *dest_in,
                                         size_t count, void *dest_out);
/* ttnn's unary ops whose LLK body is instructions ("exp", "exp_approx"):
 * the op's number by name, or -1; birsim_tensix_sfpu_op_name gives the
 * name of a number, NULL past the last. */
BIRSIM_RT_API int birsim_tensix_sfpu_op(const char *name);
BIRSIM_RT_API const char *birsim_tensix_sfpu_op_name(int op);
/* Runs op `op` as the LLK runs it on `arch` and a Dest of dest_kind: its
 * init once, its body per group, as birsim_tensix_sfpu_run. A status when
 * the LLK has no instruction-written body for the Dest kind (exp: bf16 and
 * fp16 only). */
BIRSIM_RT_API int birsim_tensix_sfpu(int arch, int op, int dest_kind,
                                     const void *dest_in, size_t count,
                                     void *dest_out);

/* Threads used by large bulk calls (results never depend on it): n > 0
 * threads, or 0 for the default (BIRSIM_NUM_THREADS, else the hardware's
 * concurrency). Returns the previous setting (0 = default). The vector path
 * is chosen once from the CPU and BIRSIM_ISA=portable|avx2|avx512. */
BIRSIM_RT_API int birsim_set_num_threads(int n);
/* The vector path in use: "portable", "avx2" or "avx512". */
BIRSIM_RT_API const char *birsim_active_isa(void);
/* The runtime's version, "MAJOR.MINOR.PATCH". */
BIRSIM_RT_API const char *birsim_version(void);

/* Fidelity counters (docs/Fidelity.md): what the simulator's numerics did
 * to the values of the bulk calls (birsim_accumulate,
 * birsim_accumulate_into, birsim_scatter_accumulate,
 * birsim_cast_copy_or_accumulate, birsim_cast, birsim_bfp_pack_tiles,
 * birsim_bfp_pack, birsim_bfp_pack_matrix, birsim_tt_fp8_encode,
 * birsim_tensix_eltwise, birsim_tensix_matmul, birsim_dma_compute,
 * birsim_accumulate_mixed, birsim_scatter_accumulate_mixed (the cast
 * family: the narrowing of each result), and birsim_bfp_pack_at and
 * birsim_bfp_pack_matrix_at at BIRSIM_BFP_HOST; a pack at a device site
 * counts nothing) since the last reset, summed over all threads.
 * Off by default. Field names are the keys of `birsim-opt
 * --birsim-fidelity`'s JSON report (include/birsim/Core/Fidelity.def);
 * `elements` counts the values examined: fp8 add elements, cast inputs, BFP
 * input floats, Tensix elementwise elements and matmul outputs. */
struct birsim_fidelity_counts {
  struct {
    uint64_t elements, sim_inf_device_saturates;
  } reduce;
  struct {
    uint64_t elements, saturated, overflow_to_inf, overflow_to_nan,
        nan_suppressed, inexact, underflow_to_zero;
  } cast;
  struct {
    uint64_t elements, flushed_to_zero, rounding_ties, saturated,
        exponent_clamped;
    uint64_t device_differs; /* since 0.2: see birsim_fidelity_counters */
  } bfp_pack;
  struct { /* since 0.3: birsim_tt_fp8_encode */
    uint64_t elements, host_ocp_differ, host_blackhole_differ,
        ocp_blackhole_differ;
  } tt_fp8;
  struct { /* since 0.4: the MX formats' packs */
    uint64_t elements, saturated, flushed_to_zero, nan;
  } mx_pack;
  struct { /* since 0.5: birsim_tensix_eltwise; 0.6: birsim_tensix_matmul */
    uint64_t elements, below_hifi4, minus_one_quirk;
  } tensix;
};
/* Fidelity.def's rows: the families (the struct's members) and the event
 * keys (their fields) by number, NULL past the last; a key's family number
 * is stored in *family when family is not NULL. */
BIRSIM_RT_API const char *birsim_fidelity_family_name(int family);
BIRSIM_RT_API const char *birsim_fidelity_event_key(int event, int *family);
BIRSIM_RT_API void birsim_fidelity_enable(int on);
/* Whether the counters are on (1) or off (0). */
BIRSIM_RT_API int birsim_fidelity_enabled(void);
/* Fills the first `out_size` bytes of *out (fields are only ever appended
 * to the struct, so a caller built with an older, smaller struct passes its
 * own sizeof and gets the fields it has): 0, or BIRSIM_EINVAL for a null
 * `out` or a size that is not a whole number of counters. */
BIRSIM_RT_API int
birsim_fidelity_counters_sized(struct birsim_fidelity_counts *out,
                               size_t out_size);
/* The original entry point: fills the 0.1 struct (up to
 * bfp_pack.exponent_clamped). Code built against this header calls the
 * sized form through the macro, with its own struct's size. */
BIRSIM_RT_API int birsim_fidelity_counters(struct birsim_fidelity_counts *out);
#define birsim_fidelity_counters(out)                                          \
  birsim_fidelity_counters_sized((out), sizeof *(out))
/* bfp_pack.device_differs compares each counted host pack with the Tensix
 * packer at `where`, a device site (default BIRSIM_BFP_FP32_DEST): the
 * number of elements birsim_bfp_device_diff(where, ...) would count on the
 * same values, for a "b" format the site writes from values its Dest holds
 * by type (a float32 Dest: every input, read as float32; a 16-bit Dest:
 * its own type); other packs count 0 there (docs/Fidelity.md). Process-
 * wide. 0, or BIRSIM_EINVAL for a site that is not a device site. */
BIRSIM_RT_API int birsim_fidelity_set_device_site(int where);
/* The site set by birsim_fidelity_set_device_site. */
BIRSIM_RT_API int birsim_fidelity_device_site(void);
/* Zeroes the counters and forgets the call sites. */
BIRSIM_RT_API void birsim_fidelity_reset(void);
/* Emitted by `birsim-to-llvm{fidelity-counters=true}` before each counted
 * call: enables the counters, attributes this thread's following calls also
 * to `site` (the op's location, a string that outlives the program) and, at
 * exit, prints to stderr one line per site and family:
 * "birsim-fidelity <site> <family> elements=N <key>=N ...". */
BIRSIM_RT_API void birsim_fidelity_site(const char *site);

/* Hook the lowered code calls after every runtime call: returns on status
 * 0; otherwise flushes stdout, prints
 * "birsim runtime error in <what>: <birsim_last_error()>" to stderr (what:
 * "<op name> at <file:line:col>") and exits with status 1, so that a host
 * such as mlir-runner prints no crash report of its own. */
BIRSIM_RT_API void birsim_check_status(int status, const char *what);
/* For embedders that handle run-time errors of lowered code themselves:
 * birsim_check_status calls `handler(status, what, birsim_last_error())`
 * instead of printing and exiting; if the handler returns, the lowered
 * code continues after the failed call, whose destination is unchanged.
 * NULL restores the default. Returns the previous handler. */
typedef void (*birsim_status_handler)(int status, const char *what,
                                      const char *message);
BIRSIM_RT_API birsim_status_handler
birsim_set_status_handler(birsim_status_handler handler);

#ifdef __cplusplus
}
#endif

#endif /* BIRSIM_RUNTIME_RUNTIME_H */

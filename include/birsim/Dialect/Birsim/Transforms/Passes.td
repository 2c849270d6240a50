//===- Passes.td - birsim dialect passes -------------------*- tablegen -*-===//
#ifndef BIRSIM_DIALECT_BIRSIM_TRANSFORMS_PASSES_TD
#define BIRSIM_DIALECT_BIRSIM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BirsimFidelityPass : Pass<"birsim-fidelity", "::mlir::ModuleOp"> {
  let summary = "Report what the simulator's numerics do to constant values";
  let description = [{
    An analysis (the IR is left unchanged) of every tensor-level birsim op
    whose operands are constants (dense, splat, scalar or `dense_resource`),
    in walk order, before folding. Per op it counts, with the core's own
    per-element classification (docs/Fidelity.md):

    - `birsim.reduce add` on an fp8 type: `sim_inf_device_saturates`, sums
      that the simulator's reduce path (FP8 config 0) turns into ±Inf where a
      saturating narrow gives ±max finite;
    - `birsim.cast` under its `fp8_config`: `saturated`, `overflow_to_inf`,
      `overflow_to_nan`, `nan_suppressed`, `inexact`, `underflow_to_zero`;
    - `birsim.dma_compute` (family `cast`): the cast engine's events of
      narrowing each exact fp32 result into the result's dtype under its
      `fp8_config` (with stochastic rounding, those nearest-even's
      narrowing has);
    - `birsim.bfp_pack` and `birsim.bfp_pack_matrix`: `flushed_to_zero`,
      `rounding_ties`, `saturated`, `exponent_clamped`, `device_differs`
      (the keys of include/birsim/Core/Fidelity.def; `device_differs`
      against the Tensix packer at `device-site`, `fp32_dest` by default);
      with an MX format, the `mx_pack` family: `saturated`,
      `flushed_to_zero`, `nan`;
    - `birsim.tensix_eltwise` (family `tensix`): `below_hifi4`, the elements
      whose Dest value differs from the same op at HiFi4, and
      `minus_one_quirk`, those whose sum hit Wormhole's renormalization of
      -1 unit; and a remark naming the op's phases that multiply only
      zeros for its operands' formats (`a_bits`, `b_bits`), and whether they
      add nothing (no product's exponent past Dest's largest);
    - `birsim.tensix_matmul` (family `tensix`): the same two counts per
      output, and a remark naming the phases that multiply only zeros for
      the constants (`--birsim-tensix-useful-phases` drops them);

    Each op with a non-zero count gets a remark naming the counts and the
    first flat (row-major) index of each; every fp8 add it cannot count
    (operands not constant, or the buffer forms `reduce_into`, `dma_copy`,
    `indirect_save`, `indirect_save_accumulate`) gets a remark that the
    simulator's reduce path does not saturate. With `report=<file>` ('-':
    stderr, after the remarks, so that stdout keeps only the module) it writes one JSON array with an object per analysed op:
    `{"op", "loc", "family", "elements", "counts", "first"}`, every key of the op's
    family present, `first` -1 for a zero count.

    ```
    birsim-opt in.mlir --birsim-fidelity=report=fidelity.json
    ```
  }];
  // The dtype table that recognises the simulator's types lives in the
  // dialect: loaded even for a module with no birsim op.
  let dependentDialects = ["::birsim::BirsimDialect"];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report to this file ('-' for stderr)">,
    Option<"deviceSite", "device-site", "std::string",
           /*default=*/"\"fp32_dest\"",
           "The device site (a BFP `at` value) device_differs compares the "
           "host packs with (docs/Fidelity.md)">
  ];
}

def BirsimTensixUsefulPhasesPass : Pass<"birsim-tensix-useful-phases"> {
  let summary = "Drop the fidelity phases that multiply only zeros";
  let description = [{
    Rewrites the `fidelity` of every `birsim.tensix_matmul` and
    `birsim.tensix_eltwise mul` to its useful phases: the phases whose
    slices can be non-zero for the operands' significant bits
    (`birsim_tensix_useful_phases`, docs/Semantics.md section 7, "Fidelity
    phases"). An operand's bits are a constant's own, a BFP or MX unpack's
    format's (bfp8 7, bfp4 3, bfp2 1), an `arith.extf`'s source type's, and
    at most its Src class's (tf32 11, bf16 8, fp16 11). bfp4 weights with
    bf16 activations give `phases_02`, bfp8 activations `hifi2`, bf16 with
    bf16 keeps `hifi4`; where no phase can multiply a non-zero pair the
    lowest phase stays.

    Each rewrite gets a remark naming the phases removed, the bounds that
    removed them, and whether the rewrite is exact: for `mul` (into a
    zeroed Dest), exact while no product's exponent passes Dest's largest,
    proved or refuted on constants (past it a zero phase realigns a
    saturated Dest); for a matmul on constants, the number of outputs that
    change, by computing both through the core; else "exact except where a
    cancelling sum or a saturated Dest is realigned": a removed phase's
    MVMULs still realign Dest to their products' exponents. With `exact-only`, only the rewrites
    proved exact are made, and each other one gets a remark saying why it
    was kept.

    ```
    birsim-opt in.mlir --birsim-tensix-useful-phases=exact-only
    ```
  }];
  let dependentDialects = ["::birsim::BirsimDialect"];
  let options = [
    Option<"exactOnly", "exact-only", "bool", /*default=*/"false",
           "Make only the rewrites proved to leave every output unchanged">
  ];
}

#endif

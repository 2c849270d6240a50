"""An NKI-style test of a scatter-add kernel, checked byte for byte
(docs/Python.md, "NKI kernel tests"): an embedding-gradient kernel adds
float32 rows into a bfloat16 table through the DMA's read-modify-write
(the older API's ``nisa.dma_copy(dst=table.ap(...), src=rows,
dst_rmw_op=nl.add)``; from aws-neuron-sdk @539a73c5 on the
read-modify-write is ``nisa.dma_compute`` with ``vector_offset``, whose
``unique_indices=True`` refuses the repeated ids this kernel has, so
birsim.dma_compute takes ``unique_indices=False`` for it), which computes in float32 and rounds every write
to bfloat16. The golden is
birsim's, not torch's; the check is nki-library's CustomValidator shape.
No Neuron package is needed:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/nki_scatter_add.py [OUTPUT.bin]

With OUTPUT.bin (the kernel's output tensor as neuron-profile writes it)
the device's bytes are checked; without it, a stand-in that issues the
kernel's DMAs tile by tile through birsim.
"""
import sys

import numpy as np

import birsim

VOCAB, DIM, TOKENS, TILE = 64, 32, 512, 128


def inputs():
    rng = np.random.default_rng(56)
    table = birsim.from_float32(rng.standard_normal((VOCAB, DIM)), "bfloat16")
    grads = (rng.standard_normal((TOKENS, DIM)) * 2**-6).astype(np.float32)
    tokens = rng.integers(0, VOCAB, TOKENS)  # repeated ids: in order
    return table, grads, tokens


def flat_indices(tokens):
    """Row scatter as element indices: table[tokens[i], j] += grads[i, j]."""
    return (tokens[:, None] * DIM + np.arange(DIM)).reshape(-1)


def kernel_stand_in(table, grads, tokens):
    """The kernel's DMAs, one 128-row tile at a time, in issue order."""
    out = table.copy()
    for start in range(0, TOKENS, TILE):
        rows = slice(start, start + TILE)
        birsim.scatter_accumulate("add", out, grads[rows],
                                  flat_indices(tokens[rows]), "bfloat16",
                                  src_dtype="float32", out=out)
    return out.tobytes()


def torch_style_golden(table, grads, tokens):
    """What a torch reference in the tensor's dtype computes: the float32
    gradients summed per row first, then added to the table once."""
    sums = np.zeros((VOCAB, DIM), np.float32)
    np.add.at(sums, tokens, grads)
    exact = birsim.to_float32(table, "bfloat16") + sums
    return birsim.from_float32(exact, "bfloat16")


def main(argv):
    table, grads, tokens = inputs()
    with birsim.fidelity() as counts:
        golden = birsim.scatter_accumulate(
            "add", table, grads.reshape(-1), flat_indices(tokens), "bfloat16",
            src_dtype="float32")
    validator = birsim.ExactValidator.expecting(golden, "bfloat16",
                                                fidelity=counts)
    if len(argv) > 1:
        output = np.fromfile(argv[1], np.uint8)
    else:
        output = np.frombuffer(kernel_stand_in(table, grads, tokens), np.uint8)
    print("kernel output: %d bytes" % output.size)
    check = validator(sys.stdout)
    print("byte-exact: %s" % check.validate(output))
    torch_golden = torch_style_golden(table, grads, tokens)
    differ = int(np.count_nonzero(torch_golden != golden))
    print("a torch-style golden differs from the device rule in %d of %d "
          "elements" % (differ, golden.size))
    wrong = validator(sys.stdout)
    print("that golden as the kernel's output is byte-exact: %s"
          % wrong.validate(torch_golden.tobytes()))
    return 0 if check.mismatches == 0 and wrong.mismatches > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

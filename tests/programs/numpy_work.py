# SPDX-License-Identifier: MIT
# numpy on whatever SIMD paths it picks for this CPU (tests/replay/numpy.sh):
# sorting, a float32 matrix product (OpenBLAS), exp, reductions, unique,
# cumulative sums, casts and string formatting, each result printed so
# that a replay computing one element differently changes the output.
import numpy as np
import numpy.core._multiarray_umath as umath

print("dispatch", " ".join(umath.__cpu_dispatch__))
rng = np.random.default_rng(7)
a = rng.standard_normal((160, 160)).astype(np.float32)
b = rng.standard_normal((160, 160))
print("sort", float(np.sort(a, axis=None)[:40].sum()).hex())
print("argsort", int(np.argsort(b, axis=None, kind="stable")[:99].sum()))
print("matmul", float((a @ a.T).trace()).hex())
print("exp", float(np.exp(b).mean()).hex(), float(np.log1p(np.abs(b)).sum()).hex())
print("sin", float(np.sin(a).astype(np.float64).sum()).hex())
print("minmax", float(b.max()).hex(), float(a.min()).hex(),
      int(np.argmax(b)), int(np.count_nonzero(b > 0.5)))
s = np.unique((b * 10).astype(np.int64))
print("unique", len(s), int(s.sum()))
print("cumsum", float(np.cumsum(a.ravel())[-1]).hex())
i = (b * 1000).astype(np.int32)
print("int", int((i * 3 - (i >> 2)).sum()), int(np.bitwise_xor.reduce(i.ravel())))
print("half", float(a.astype(np.float16).astype(np.float64).sum()).hex())
print("text", np.array2string(b[:2, :3], precision=6))

import sys
# maxnreg.py SRC DST N [DIRECTIVE]: `.maxnreg N` (or `.DIRECTIVE N`, e.g.
# minnctapersm) on tcuc_kernel_k1, after its .maxntid line; the cache
# file re-hashed.
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
directive = sys.argv[4] if len(sys.argv) > 4 else 'maxnreg'
data = open(src, 'rb').read()
eol = data.index(b'\n')
body = data[eol+1:].decode()
i = body.index('.visible .entry tcuc_kernel_k1(')
j = body.index('.maxntid', i)
k = body.index('\n', j)
body = body[:k+1] + f'.{directive} {n}\n' + body[k+1:]
b = body.encode()
h = 0xcbf29ce484222325
for c in b:
    h ^= c; h = (h * 0x100000001b3) & 0xffffffffffffffff
open(dst, 'wb').write(f'tcuc-cache 1 {h:016x} {len(b)}\n'.encode() + b)

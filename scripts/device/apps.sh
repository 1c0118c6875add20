#!/usr/bin/env bash
# An app tried as a user would on a GPU machine: a real mesh with
# -o out.ply --json r.json --check; then the PLY is compared with the input:
#   COMPARE=positions (default)  one vertex per input vertex, in input order,
#                                same face count, positions unchanged
#   COMPARE=counts               the same counts; positions may move (mcf, bilateral);
#                                a "displacement" property must equal each
#                                vertex's distance from its input position
#                                (so the vertices are in input order)
#   COMPARE=none                 the app changes the mesh (subdivide, remesh, simplify)
# usage: [COMPARE=...] scripts/device.sh apps BUILD_DIR MESH.off APP [ARGS...]
#   APP is the folder under apps/ (delaunay, mcf, ...); logs in $OUT/apps.txt
set -uo pipefail
BUILD="${1:?build dir}"; MESH="${2:?mesh}"; NAME="${3:?app}"; shift 3
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
APP="$BUILD/apps/$NAME/rxmesh-${NAME//_/-}"
LOG="$OUT/apps.txt"
T=$(mktemp -d)
echo "== rxmesh-${NAME//_/-} $(basename "$MESH") $*" >> "$LOG"
"$APP" "$MESH" -o "$T/out.ply" --json "$T/r.json" --check "$@" >> "$LOG" 2>&1
echo "rxmesh-${NAME//_/-} exit $?" | tee -a "$LOG"
cp "$T/r.json" "$OUT/app_$NAME.json" 2>/dev/null
COMPARE="${COMPARE:-positions}"
if [ "$COMPARE" != none ]; then
python3 - "$MESH" "$T/out.ply" "$COMPARE" <<'PY' | tee -a "$LOG"
import struct, sys
off, ply = sys.argv[1], sys.argv[2]
tok = open(off).read().split()
assert tok[0] == "OFF", "not an OFF file"
nv, nf = int(tok[1]), int(tok[2])
vin = [tuple(float(x) for x in tok[4 + 3*i: 7 + 3*i]) for i in range(nv)]
data = open(ply, "rb").read()
end = data.index(b"end_header\n") + len(b"end_header\n")
head = data[:end].decode().splitlines()
assert "format binary_little_endian 1.0" in head, head[:3]
elems, cur = [], None
for line in head:
    w = line.split()
    if w[0] == "element": cur = [w[1], int(w[2]), []]; elems.append(cur)
    elif w[0] == "property" and cur: cur[2].append(w[1:])
vert = elems[0]; assert vert[0] == "vertex"
sizes = {"float": "f", "float32": "f", "double": "d", "uchar": "B", "uint8": "B", "int": "i", "uint": "I"}
fmt = "<" + "".join(sizes[p[0]] for p in vert[2])
rec = struct.calcsize(fmt); names = [p[-1] for p in vert[2]]
ix, iy, iz = names.index("x"), names.index("y"), names.index("z")
idisp = names.index("displacement") if "displacement" in names else None
worst, worst_disp = 0.0, 0.0
for v in range(min(vert[1], nv)):
    r = struct.unpack_from(fmt, data, end + v*rec)
    p = (r[ix], r[iy], r[iz]); q = vin[v]
    worst = max(worst, max(abs(a - b) / max(1.0, abs(b)) for a, b in zip(p, q)))
    if idisp is not None:
        dist = sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5
        worst_disp = max(worst_disp, abs(dist - r[idisp]) / max(1.0, dist))
faces = [e for e in elems if e[0] == "face"][0][1]
print(f"PLY vertices {vert[1]} (input {nv}), faces {faces} (input {nf}), worst relative position change {worst:.2e}")
same_counts = vert[1] == nv and faces == nf
if idisp is not None:
    print(f"displacement against distance from the input position: worst {worst_disp:.2e}")
same_places = worst < 1e-6 or (sys.argv[3] == "counts" and worst_disp < 1e-5)
print(f"PLY matches input ({sys.argv[3]})" if same_counts and same_places else "PLY MISMATCH")
PY
fi
rm -rf "$T"

# Size claims no stored bytes can back are refused before anything is
# allocated (core: plumbob_package_read_size): a RefPack entry whose index
# claims 4 GiB, and one whose stream header claims 2 GiB, each from 7 stored
# bytes.  Every command that reads entries says so, names the resource, and
# exits 1.  Sourced by tool-tests.sh.
python3 - "$tmp" <<'PY'
import struct, sys
def pkg(mem, data):
    hdr = bytearray(96); hdr[0:4] = b'DBPF'; struct.pack_into('<II', hdr, 4, 2, 0)
    entry = struct.pack('<IIIIIIIHH', 0x6B20C4F3, 0, 0, 0x1234, 96, len(data) | 0x80000000, mem, 0xFFFF, 1)
    index = struct.pack('<I', 0) + entry
    struct.pack_into('<I', hdr, 36, 1); struct.pack_into('<I', hdr, 44, len(index))
    struct.pack_into('<I', hdr, 60, 3); struct.pack_into('<I', hdr, 64, 96 + len(data))
    return bytes(hdr) + data + index
stream = bytes([0x90, 0xFB]) + struct.pack('>I', 0x7FFFFFFF) + bytes([0xFC]) # 2 GiB - 1 from nothing
open(sys.argv[1] + '/claim4g.package', 'wb').write(pkg(0xFFFFFFF0, stream))
open(sys.argv[1] + '/claim2g.package', 'wb').write(pkg(0x7FFFFFFF, stream))
PY
for c in claim4g claim2g; do
    want=$([ $c = claim4g ] && echo 4294967280 || echo 2147483647)
    expect limit-$c-extract 1 "@6B20C4F3:00000000:0000000000001234: claims $want bytes decompressed from 7 stored; .*refused before allocating" \
        "$bin" extract "$tmp/$c.package" -o "$tmp/lim-$c"
    expect limit-$c-check 1 "claims $want bytes decompressed from 7 stored, more than its RefPack stream can give" \
        "$bin" check "$tmp/$c.package"
    expect limit-$c-dump 1 "claims $want bytes .*refused before allocating" \
        "$bin" clip dump "$tmp/$c.package"
    expect limit-$c-ls 0 "$want" "$bin" ls "$tmp/$c.package"
done

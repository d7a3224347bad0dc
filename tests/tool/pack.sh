# pack refuses what the game would not read: a key twice, the other game's
# resource types (unless --force), and nothing at all.  Sourced by tool-tests.sh.
mkdir -p "$tmp/pq"
"$bin" demo --write "$tmp/pq" >/dev/null
pq_clip=$(ls "$tmp"/pq/6B20C4F3_*.clip) pq_gmdc=$(ls "$tmp"/pq/AC4F8687_*.gmdc)
expect pack-nothing 2 'no resources to pack' "$bin" pack -o "$tmp/pq0.package"
expect pack-nothing-no-file 1 '' test -e "$tmp/pq0.package"
cp "$pq_clip" "$tmp/pq-dup"; mkdir -p "$tmp/pq-dup.d"; cp "$pq_clip" "$tmp/pq-dup.d/"
expect pack-duplicate-key 2 "pq-dup.d/$(basename "$pq_clip"): the same resource key as .*pq/$(basename "$pq_clip"): a package holds each key once" \
    "$bin" pack -o "$tmp/pq1.package" "$pq_clip" "$tmp/pq-dup.d/$(basename "$pq_clip")"
expect pack-duplicate-no-file 1 '' test -e "$tmp/pq1.package"
expect pack-sims2-type-in-sims3 2 "$(basename "$pq_gmdc"): is a Sims 2 resource; a Sims 3 package cannot use it \(add --sims2" \
    "$bin" pack -o "$tmp/pq2.package" "$pq_clip" "$pq_gmdc"
expect pack-sims3-type-in-sims2 2 "$(basename "$pq_clip"): is a Sims 3 resource; a Sims 2 \(--sims2\) package cannot use it" \
    "$bin" pack -o "$tmp/pq3.package" "$pq_gmdc" "$pq_clip" --sims2
expect pack-wrong-game-forced 0 'packed 2 resources .*\(DBPF 1.1' "$bin" pack --force -o "$tmp/pq3.package" "$pq_gmdc" "$pq_clip" --sims2
expect pack-right-game 0 'packed 1 resources .*\(DBPF 1.1' "$bin" pack --sims2 -o "$tmp/pq4.package" "$pq_gmdc"
# an existing package is left as it was when pack refuses
cp "$tmp/pq4.package" "$tmp/pq4.keep"
expect pack-refused-keeps-output 2 'is a Sims 2 resource' "$bin" pack -o "$tmp/pq4.package" "$pq_gmdc"
expect pack-refused-kept 0 '' cmp "$tmp/pq4.keep" "$tmp/pq4.package"

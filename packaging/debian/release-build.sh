# shellcheck shell=bash disable=SC2154  # sourced: $root comes from the caller
# Sourced by build-deb and build-deb-app: the one release build both packages are made from,
# done so that the bytes do not depend on the folder the source is checked out in.
# Expects $root (the source tree). Provides release_build and release_finish.
#
# Why a fixed folder: the Swift compiler writes the length of a source file's absolute path
# into the code where it checks a withoutActuallyEscaping closure (GRDB's Database+Dump.swift
# had two; GRDB is gone, the folder stays so that any such closure cannot make the bytes depend
# on the checkout's folder), and -file-prefix-map does not reach it. So the tree is copied to one fixed folder
# and built there, with the Swift packages checked out beside it; only the files whose content
# changed are rewritten, so a second build-deb is incremental.
release_scratch=${RUNWALK_DEB_SCRATCH:-/tmp/runwalk-deb-build}

# Full RELRO: the linker already makes RELRO; immediate binding is what Debian's hardening asks.
swift_flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker now
  --package-path "$release_scratch/src" --scratch-path "$release_scratch/build")
# Debug info names the source folder; map it to "." as dpkg-buildflags does for C.
swift_flags+=(-Xswiftc -file-prefix-map -Xswiftc "$release_scratch/src=.")
swift_flags+=(-Xcc "-ffile-prefix-map=$release_scratch/src=.")

# Libraries the binaries open with dlopen when speech is first used (CPulse, CEspeakNG: a run
# without the speaker maps neither), so dpkg-shlibdeps cannot see them. Versions as
# dpkg-shlibdeps gave them while they were linked (from the symbols files: the same functions).
dlopened_depends="libespeak-ng1 (>= 1.51+dfsg), libpulse0 (>= 0.99.1)"

# Prints dpkg-shlibdeps' Depends ($1) with $dlopened_depends merged in, sorted as it sorts.
with_dlopened_depends() {
  printf '%s, %s\n' "$1" "$dlopened_depends" | sed 's/, /\n/g' | LC_ALL=C sort -u | paste -sd ',' | sed 's/,/, /g'
}

# Prints Depends ($1) with libc6 raised to 2.36 when BINARY ($2) has packed relative relocations:
# lld's DT_RELR needs the dynamic linker's GLIBC_ABI_DT_RELR (glibc 2.36), a version dependency
# that dpkg-shlibdeps does not count (it goes by the symbols used: it said libc6 (>= 2.35), and
# on 2.35 such a binary does not start: "version `GLIBC_ABI_DT_RELR' not found").
with_relr_libc() {
  if readelf -V "$2" | grep -q 'Name: GLIBC_ABI_DT_RELR'; then
    printf '%s\n' "$1" | sed -E 's/libc6 \(>= 2\.([0-9]|[12][0-9]|3[0-5])(\.[0-9]+)?\)/libc6 (>= 2.36)/'
  else
    printf '%s\n' "$1"
  fi
}

# Lists the source files, NUL-separated, relative to $root: what git tracks or would track
# (ignored files such as .build/ and Package.resolved left out), or everything but build
# output outside a git checkout.
release_source_files() {
  if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" ls-files -z -co --exclude-standard
  else
    (cd "$root" && find . \( -name .build -o -name '.build-*' -o -name .swiftpm -o -path ./out \) -prune \
      -o -type f -printf '%P\0')
  fi
}

# Makes $release_scratch/src hold exactly the source files of $root, rewriting only those whose
# content differs and deleting those that are gone.
release_sync_tree() {
  local src=$release_scratch/src f
  mkdir -p "$src"
  release_source_files | LC_ALL=C sort -z > "$release_scratch/files"
  while IFS= read -r -d '' f; do
    [ -f "$root/$f" ] || continue
    cmp -s "$root/$f" "$src/$f" && continue
    mkdir -p "$(dirname "$src/$f")"
    cp "$root/$f" "$src/$f"
    chmod "$(stat -c %a "$root/$f")" "$src/$f"
  done < "$release_scratch/files"
  (cd "$src" && find . \( -name .swiftpm -o -name Package.resolved \) -prune -o -type f -printf '%P\0') \
    | LC_ALL=C sort -z | LC_ALL=C comm -z -23 - "$release_scratch/files" \
    | (cd "$src" && xargs -0 -r rm -f)
}

# Builds PRODUCT in the fixed folder and installs the binary as DEST. One build at a time
# uses the folder (a lock beside it), whichever checkout it comes from.
release_build() {
  local product=$1 dest=$2
  mkdir -p "$release_scratch"
  (
    flock 9
    release_sync_tree
    # From inside the fixed folder: the compiler records its working directory too.
    cd "$release_scratch/src" || exit
    swift build "${swift_flags[@]}" --product "$product" >&2
    install -Dm755 "$(swift build "${swift_flags[@]}" --show-bin-path)/$product" "$dest"
  ) 9> "$release_scratch.lock"
}

# Prints the file offset and size (hexadecimal) of ELF section NAME of FILE.
elf_section() {
  readelf -SW "$1" | awk -v name="$2" '{ line = $0; if (!sub(/^ *\[ *[0-9]+\] */, "", line)) next
    split(line, field, " "); if (field[1] == name) { print field[4], field[5]; exit } }'
}

# Makes the installed binary FILE what the package ships:
# - strips it, and .comment (the toolchain's name) and .note (build-host notes) with it;
# - zeroes .swift_modhash in place: the compiler's hash of each module's LLVM IR, read back
#   from object files to skip re-codegen, nothing reads the linked copy. Removing the section
#   instead would move the sections after it, and strip then drops the GNU_RELRO program
#   header (lintian hardening-no-relro);
# - recomputes the build ID from the stripped bytes (seeded with the file's name): the linker
#   computed it over the unstripped binary, whose symbol tables and debug info can differ
#   between two builds that strip to the same bytes.
release_finish() {
  local offset size
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$1"
  read -r offset size < <(elf_section "$1" .swift_modhash)
  if [ -n "${offset:-}" ]; then
    dd if=/dev/zero of="$1" bs=1 seek=$((16#$offset)) count=$((16#$size)) conv=notrunc status=none
  fi
  debugedit --build-id --build-id-seed="$(basename "$1")" "$1" >/dev/null
}

# Sourced by build-deb and build-deb-app: the one release build both packages are made
# from, with the flags that keep the bytes independent of the folder it is built in.
# Expects $root (the source tree) and $SOURCE_DATE_EPOCH; sets swift_flags and strip_flags.

# Full RELRO: the linker already makes RELRO; immediate binding is what Debian's hardening asks.
swift_flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker now)
# Debug info and the compilers' recorded paths name the source folder; map it to "." (as
# dpkg-buildflags does for C) so two checkouts in different folders compile to the same bytes.
swift_flags+=(-Xswiftc -file-prefix-map -Xswiftc "$root=.")
swift_flags+=(-Xcc "-ffile-prefix-map=$root=.")
# .comment names the toolchain and .note holds build-host notes; neither is read at run time.
strip_flags=(--strip-unneeded --remove-section=.comment --remove-section=.note)

# Zeroes the .swift_modhash section of an executable in place. It holds the compiler's hash of
# each module's LLVM IR, which the compiler reads back from object files to skip re-codegen;
# nothing reads the linked copy. The IR records the build folder, so the hash differs between
# checkouts. Removing the section would move the sections after it: strip then drops the
# GNU_RELRO program header (lintian hardening-no-relro), so its bytes are overwritten instead.
zero_modhash() {
  local offset size
  read -r offset size < <(readelf -SW "$1" | awk '$2 == ".swift_modhash" { print $5, $6; exit }')
  [ -n "${offset:-}" ] || return 0
  dd if=/dev/zero of="$1" bs=1 seek=$((16#$offset)) count=$((16#$size)) conv=notrunc status=none
}

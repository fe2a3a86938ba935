# Sourced by build-deb and build-deb-app: the one release build both packages are made
# from, with the flags that keep the bytes independent of the folder it is built in.
# Expects $root (the source tree) and $SOURCE_DATE_EPOCH; sets swift_flags and strip_flags.

# Full RELRO: the linker already makes RELRO; immediate binding is what Debian's hardening asks.
swift_flags=(-c release --static-swift-stdlib -Xlinker -z -Xlinker now)
# Debug info and the compilers' recorded paths name the source folder; map it to "." (as
# dpkg-buildflags does for C) so two checkouts in different folders compile to the same bytes.
swift_flags+=(-Xswiftc -file-prefix-map -Xswiftc "$root=.")
swift_flags+=(-Xcc "-ffile-prefix-map=$root=.")
# .swift_modhash is the compiler's hash of each module's code, kept only to skip re-codegen
# on the next build; .comment names the toolchain; .note.* other than the build id are
# build-host notes. None is read at run time.
strip_flags=(--strip-unneeded --remove-section=.comment --remove-section=.note
  --remove-section=.swift_modhash)

# Sourced by the fetch scripts and tools/debian-root.sh: debian_uri prints
# the Debian archive the machine's apt uses (its first .../debian entry,
# never hard-coded), or nothing and fails when it has none; sid_src_entry
# makes sure apt knows Debian sid's source packages, through a deb-src entry
# of that archive. The caller defines fail().

debian_uri() {
    du_uri=$(sed -n 's/^URIs:[[:space:]]*\(.*\/debian\)[[:space:]]*$/\1/p' \
                 /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
    if [ -z "$du_uri" ]; then
        du_uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
                     /etc/apt/sources.list 2>/dev/null | head -n1)
    fi
    [ -n "$du_uri" ] && echo "$du_uri"
}

sid_src_entry() {
    srcfile=/etc/apt/sources.list.d/vmaf-hip-sid-src.sources
    uri=$(debian_uri) ||
        fail "no Debian archive entry found in /etc/apt to derive a deb-src entry from."
    if [ ! -f "$srcfile" ]; then
        [ "$(id -u)" = 0 ] || fail "need root once to add a deb-src entry for sid ($srcfile)."
        printf 'Types: deb-src\nURIs: %s\nSuites: sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$uri" > "$srcfile"
    fi
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq -o Dir::Etc::sourcelist="$srcfile" -o Dir::Etc::sourceparts=- \
            -o APT::Get::List-Cleanup=0 >/dev/null ||
            fail "apt-get update failed for the sid deb-src entry."
    fi
}

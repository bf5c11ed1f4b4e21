# Sourced by the results scripts that ran on a GPU host from a `make dist`
# archive, right after their header: no argument is taken (-h/--help: the
# usage), ARCHIVE (the archive) is unpacked into /tmp/a and PYDEPS (Debian
# 12's dask, distributed and their pure-Python needs, a tar.xz) into
# /tmp/site; sets b (the archive's bin/) and PYTHONPATH, and names the GPU.
case ${1:-} in
"") ;;
-h|--help) echo "usage: ${0##*/}"; exit 0 ;;
*) echo "usage: ${0##*/}" >&2; exit 2 ;;
esac
mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
b=$(echo /tmp/a/*/bin)
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader

"""Fetching Debian's gcc-12 source package once and extracting only libgomp's testsuite from it."""

import glob
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

SOURCE_PACKAGE = "gcc-12"
DEB_SRC_FILE = Path("/etc/apt/sources.list.d/ilan-deb-src.sources")

# Besides the testsuite, the tests include two headers through the include
# directories libgomp's .exp files add: libgomp/libgomp_g.h (-I libgomp/)
# and include/gomp-constants.h (-I include/).
_MEMBER_PATTERNS = ("*/libgomp/testsuite/*", "*/libgomp/libgomp_g.h", "*/include/gomp-constants.h")

# Debian's gcc-12 (12.2.0-14) is built from this tarball with its branch
# update, git-updates.diff, switched off in debian/rules.patch; its only patch
# to libgomp's testsuite matters on kFreeBSD alone. So the tarball's testsuite
# is the one that matches the installed compiler and libgomp1: no patching.


def log(message: str) -> None:
    print(f"conformance: {message}", file=sys.stderr, flush=True)


def _privileged(command: list[str]) -> list[str]:
    """Run as root: directly when we are, otherwise through sudo."""
    return command if os.geteuid() == 0 else ["sudo", *command]


def installed_version(package: str = SOURCE_PACKAGE) -> str:
    """The Debian version of the installed compiler package (the source to match)."""
    result = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def _apt_with_lock_retry(command: list[str], cwd: Path | None = None, attempts: int = 30) -> None:
    """apt-get, waiting while another apt or dpkg (another engineer's install) holds the lock."""
    for _ in range(attempts):
        result = subprocess.run(command, cwd=cwd, check=False, capture_output=True, text=True)
        if result.returncode == 0:
            return
        if "lock" not in (result.stderr + result.stdout).lower():
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
        log("apt is locked by another process; retrying in 10 s")
        time.sleep(10)
    raise RuntimeError(f"{' '.join(command)}: the apt lock stayed busy")


def has_deb_src_entry() -> bool:
    """Some apt source (one-line .list or deb822 .sources) already lists deb-src."""
    files = ["/etc/apt/sources.list", *glob.glob("/etc/apt/sources.list.d/*.list")]
    for name in files:
        if os.path.exists(name) and re.search(r"^\s*deb-src\s", Path(name).read_text(), re.MULTILINE):
            return True
    for name in glob.glob("/etc/apt/sources.list.d/*.sources"):
        for stanza in Path(name).read_text().split("\n\n"):
            types = re.search(r"^Types:(.*)$", stanza, re.MULTILINE)
            enabled = not re.search(r"^Enabled:\s*no", stanza, re.MULTILINE | re.IGNORECASE)
            if types and "deb-src" in types.group(1).split() and enabled:
                return True
    return False


def _deb_src_stanza() -> str:
    """A deb822 deb-src stanza mirroring the machine's main Debian 'deb' source."""
    for name in ["/etc/apt/sources.list.d/debian.sources", *glob.glob("/etc/apt/sources.list.d/*.sources")]:
        if not os.path.exists(name):
            continue
        for stanza in Path(name).read_text().split("\n\n"):
            fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.MULTILINE))
            if "deb" in fields.get("Types", "").split() and re.search(r"/debian/?$", fields.get("URIs", "")):
                lines = ["Types: deb-src"] + [
                    f"{key}: {fields[key]}" for key in ("URIs", "Suites", "Components", "Signed-By") if key in fields
                ]
                return "\n".join(lines) + "\n"
    codename = ""
    if os.path.exists("/etc/os-release"):
        found = re.search(r"^VERSION_CODENAME=(\w+)", Path("/etc/os-release").read_text(), re.MULTILINE)
        codename = found.group(1) if found else ""
    return (
        "Types: deb-src\nURIs: http://deb.debian.org/debian\n"
        f"Suites: {codename or 'bookworm'} {codename or 'bookworm'}-updates\nComponents: main\n"
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
    )


def _ensure_deb_src() -> None:
    if has_deb_src_entry():
        return
    log(f"adding a deb-src entry: {DEB_SRC_FILE}")
    subprocess.run(_privileged(["tee", str(DEB_SRC_FILE)]), input=_deb_src_stanza(), text=True,
                   stdout=subprocess.DEVNULL, check=True)


def _source_known(version: str) -> bool:
    result = subprocess.run(["apt-cache", "showsrc", f"{SOURCE_PACKAGE}"], check=False, capture_output=True, text=True)
    return f"Version: {version}" in result.stdout


def download_source(cache: Path) -> Path:
    """The directory holding gcc-12's .dsc, orig and debian tarballs for the
    installed version; downloaded only when not already there."""
    version = installed_version()
    upstream = version.split("-")[0].split(":")[-1]
    directory = cache / "download"
    directory.mkdir(parents=True, exist_ok=True)
    orig = directory / f"{SOURCE_PACKAGE}_{upstream}.orig.tar.gz"
    debian = directory / f"{SOURCE_PACKAGE}_{version.split(':')[-1]}.debian.tar.xz"
    if orig.exists() and debian.exists():
        return directory
    _ensure_deb_src()
    if not _source_known(version):
        log("apt-get update (for the deb-src lists)")
        _apt_with_lock_retry(_privileged(["apt-get", "update", "-qq"]))
    log(f"downloading the {SOURCE_PACKAGE} {version} source package into {directory}")
    _apt_with_lock_retry(
        ["apt-get", "source", "--download-only", "-qq", f"{SOURCE_PACKAGE}={version}"], cwd=directory
    )
    if not (orig.exists() and debian.exists()):
        raise RuntimeError(f"apt-get source did not leave {orig.name} and {debian.name} in {directory}")
    return directory


def _inner_gcc_tarball(orig: Path) -> str:
    """Debian's orig tarball wraps upstream's (gcc-12.2.0-dfsg.tar.xz) beside newlib and gm2."""
    listing = subprocess.run(["tar", "-tzf", str(orig)], capture_output=True, text=True, check=True).stdout
    for member in listing.splitlines():
        if re.search(r"/gcc-[0-9.]+(-dfsg)?\.tar\.(xz|gz|bz2)$", member):
            return member
    raise RuntimeError(f"no gcc tarball inside {orig}")


def extract_testsuite(cache: Path) -> Path:
    """libgomp's testsuite directory (the tree's libgomp/testsuite), extracted
    once per source version; later calls only look it up."""
    download = download_source(cache)
    orig = next(download.glob(f"{SOURCE_PACKAGE}_*.orig.tar.gz"))
    debian = next(download.glob(f"{SOURCE_PACKAGE}_*.debian.tar.xz"))
    tree = cache / ("testsuite-" + debian.name.removesuffix(".debian.tar.xz"))
    stamp = tree / ".complete"
    if stamp.exists():
        return tree / "libgomp" / "testsuite"
    log(f"extracting libgomp/testsuite from {orig.name}")
    shutil.rmtree(tree, ignore_errors=True)
    staging = tree.with_name(tree.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    inner = _inner_gcc_tarball(orig)
    outer_tar = subprocess.Popen(["tar", "-xzf", str(orig), "-O", inner], stdout=subprocess.PIPE)
    decompress = "-xJf" if inner.endswith(".xz") else ("-xzf" if inner.endswith(".gz") else "-xjf")
    subprocess.run(
        ["tar", decompress, "-", "-C", str(staging), "--strip-components=1", "--wildcards", *_MEMBER_PATTERNS],
        stdin=outer_tar.stdout,
        check=True,
    )
    assert outer_tar.stdout is not None
    outer_tar.stdout.close()
    if outer_tar.wait() != 0:
        raise RuntimeError(f"could not read {inner} from {orig}")
    staging.rename(tree)
    stamp.write_text(inner + "\n")
    return tree / "libgomp" / "testsuite"

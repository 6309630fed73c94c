"""Export one commit of a git repository into a folder, like `git archive | tar -x`, but a
blob missing from a partial snapshot (a large test file left out) is skipped with a count
instead of failing the whole export. Used by host_tools/builds/build_uf2.sh.

    python3 host_tools/builds/git_export.py REPO COMMIT DEST"""

import os
import subprocess
import sys


def export(repo, commit, dest):
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout.split(b"\0")
    entries = []
    for line in listing:
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode()))
    batch = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    missing = 0
    for mode, sha, path in entries:
        batch.stdin.write(sha + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if header[-1] == b"missing":
            missing += 1
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == b"120000":
            if os.path.lexists(target):
                os.remove(target)
            os.symlink(data.decode(), target)
            continue
        with open(target, "wb") as f:
            f.write(data)
        if mode == b"100755":
            os.chmod(target, 0o755)
    batch.stdin.close()
    batch.wait()
    return len(entries), missing


if __name__ == "__main__":
    total, missing = export(*sys.argv[1:4])
    print("%s: %d files%s" % (sys.argv[3], total - missing,
                              ", %d left out of the snapshot" % missing if missing else ""))

import hashlib
import json

import pytest

from mlgeom.book import data as D

EMPTY_FIELDS = '"description": "", "source": "", "terms": "", "get": ""'


def _manifest(tmp_path, files):
    m = {
        "datasets": {
            "toy": {
                "description": "a toy corpus",
                "source": "the test suite",
                "terms": "public domain",
                "get": "make toy",
                "files": files,
            }
        }
    }
    p = tmp_path / "manifest.json"
    p.write_text(json.dumps(m))
    return D.load_manifest(p)


def test_require_verifies_checksums(tmp_path):
    root = tmp_path / "store"
    (root / "toy").mkdir(parents=True)
    f = root / "toy" / "a.txt"
    f.write_bytes(b"hello\n")
    manifest = _manifest(tmp_path, {"toy/a.txt": hashlib.sha256(b"hello\n").hexdigest()})
    assert D.require("toy", manifest=manifest, root=root) == root.resolve()
    assert D.status(manifest, root) == {"toy": "present"}
    f.write_bytes(b"hellO\n")
    with pytest.raises(D.DataError, match="checksum mismatch for toy/a.txt"):
        D.require("toy", manifest=manifest, root=root)
    assert D.status(manifest, root) == {"toy": "corrupt"}


def test_missing_data_gives_one_clear_message(tmp_path, monkeypatch):
    manifest = _manifest(tmp_path, {"toy/a.txt": "0" * 64})
    monkeypatch.setenv("MLGEOM_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(D.DataError) as exc:
        D.require("toy", manifest=manifest)
    msg = str(exc.value)
    for part in (
        "missing toy/a.txt",
        "nowhere",
        "MLGEOM_DATA",
        "the test suite",
        "public domain",
        "Get it with: make toy",
    ):
        assert part in msg
    with pytest.raises(D.DataError, match="unknown dataset 'other'"):
        D.require("other", manifest=manifest)


@pytest.mark.parametrize(
    "text, match",
    [
        ("{", "not valid JSON"),
        ('{"datasets": []}', "top level"),
        ('{"datasets": {"x": {"files": {}}}}', "misses"),
        (
            '{"datasets": {"x": {' + EMPTY_FIELDS + ', "files": {"a": "xyz"}}}}',
            "64 lower-case hex",
        ),
        (
            '{"datasets": {"x": {' + EMPTY_FIELDS + ', "files": {"../a": "' + "0" * 64 + '"}}}}',
            "must be relative",
        ),
    ],
)
def test_malformed_manifests(tmp_path, text, match):
    p = tmp_path / "manifest.json"
    p.write_text(text)
    with pytest.raises(D.DataError, match=match):
        D.load_manifest(p)


def test_the_shipped_manifest_is_valid():
    datasets = D.load_manifest()
    assert {"rcv1-hierarchy", "rcv1-sample", "mesh-trees"} <= set(datasets)


def test_data_dir_default_and_override(tmp_path, monkeypatch):
    assert D.data_dir().name == "data"
    monkeypatch.setenv("MLGEOM_DATA", str(tmp_path))
    assert D.data_dir() == tmp_path.resolve()


def test_cli(tmp_path, capsys):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "f.bin").write_bytes(b"x")
    assert D.main(["hash", str(tmp_path / "c")]) == 0
    assert json.loads(capsys.readouterr().out) == {"c/f.bin": hashlib.sha256(b"x").hexdigest()}
    assert D.main(["bogus"]) == 2

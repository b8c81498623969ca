"""Regression tests of issue 16: the ``python -m mlgeom.book.data`` exit codes."""

from mlgeom.book import data as D


def test_status_exits_non_zero_when_a_file_is_corrupt(monkeypatch, capsys):
    monkeypatch.setattr(D, "status", lambda: {"a": "present", "b": "corrupt", "c": "missing"})
    assert D.main(["status"]) == 1
    assert "corrupt dataset(s): b" in capsys.readouterr().err
    monkeypatch.setattr(D, "status", lambda: {"a": "present", "c": "missing"})
    assert D.main(["status"]) == 0


def test_hash_of_a_missing_folder_is_an_error(tmp_path, capsys):
    assert D.main(["hash", str(tmp_path / "nonexistent")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert D.main(["hash", str(tmp_path / "empty")]) == 1

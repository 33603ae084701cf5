# Overrides the contrib hook, which bundles all of jieba's data (25 MB more): the app only
# segments with jieba.cut_for_search, which reads dict.txt and the HMM of jieba/finalseg.
from PyInstaller.utils.hooks import collect_data_files

datas = [(src, dest) for src, dest in collect_data_files("jieba") if dest in ("jieba", "jieba/finalseg")]

"""Retraining recipe of the naive Bayes test model (1/train.py), run by the platform in its sandbox:
python 1/train.py DATA_DIR OUTPUT_DIR. It continues from the current version: its counts plus the words of every row
of DATA_DIR/train.jsonl, written with the model's files into OUTPUT_DIR (this script too, so the next version can be
retrained again)."""

import json
import re
import shutil
import sys
from pathlib import Path

WORD = re.compile(r"[a-z']+")
version = Path(__file__).resolve().parent  # the model's version folder: 1/
data, output = Path(sys.argv[1]), Path(sys.argv[2])
task = json.loads((data / "task.json").read_text())
state = json.loads((version / "counts.json").read_text())
added = 0
for line in (data / "train.jsonl").open():
    row = json.loads(line)
    label = row["label"]
    text = " ".join(row[name] for name in task["model_inputs"])
    for word in WORD.findall(text.lower()):
        state["counts"][label][word] = state["counts"][label].get(word, 0) + 1
    state["docs"][label] += 1
    added += 1
shutil.copy(version.parent / "config.pbtxt", output / "config.pbtxt")
(output / "1").mkdir()
shutil.copy(version / "model.py", output / "1" / "model.py")
shutil.copy(version / "train.py", output / "1" / "train.py")
(output / "1" / "counts.json").write_text(json.dumps(state))
print(f"added {added} examples to the counts")

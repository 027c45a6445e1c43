"""Writes the test files of the document parsers and what pandas reads from them (JSON on stdout).

Called by documents-pandas.integration.test.ts with a folder: Excel files are written by openpyxl,
then read by pandas read_excel (openpyxl), JSON by json_normalize, XML by read_xml (lxml).
Dates come out as {"$ms": epoch milliseconds in UTC} after localizing to the case's time zone.
"""
import datetime, io, json, math, os, sys, zipfile
import openpyxl
import pandas as pd

folder = sys.argv[1]
cases = []


def plain(value, tz):
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is pd.NaT:
        return None
    if isinstance(value, (pd.Timestamp, datetime.datetime)):
        stamp = pd.Timestamp(value)
        stamp = stamp.tz_localize(tz) if stamp.tzinfo is None else stamp
        return {"$ms": int(stamp.tz_convert("UTC").value // 1_000_000)}
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if hasattr(value, "item"):
        return value.item()
    return value


def frame_records(frame, tz="UTC"):
    return [{str(k): plain(v, tz) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def add(name, parser, frame, tz="UTC"):
    cases.append({"name": name, "file": os.path.join(folder, parser.pop("file")), "parser": parser, "records": frame_records(frame, tz)})


# ---------------------------------------------------------------- Excel
book = openpyxl.Workbook()
sheet = book.active
sheet.title = "Summary"
sheet.append(["note"])
sheet.append(["first sheet, not the data"])
data = book.create_sheet("Data")
data.append(["exported by LIMS", None, None])
data.append([])
data.append(["sample", "value", "count", "passed", "taken", "comment", "value"])
base = datetime.datetime(2024, 3, 20, 23, 15, 0)
for i in range(40):
    data.append([
        f"S-{i:03d}", i * 1.25 - 3, i * 7, i % 3 == 0, base + datetime.timedelta(hours=i, seconds=0.5 * (i % 2)),
        None if i % 4 == 0 else f"ok {i} ü€", i * 100,
    ])
for row in data.iter_rows(min_row=4, min_col=5, max_col=5):
    for cell in row:
        cell.number_format = "yyyy-mm-dd hh:mm:ss"
data["C6"] = 99  # replaced by a formula with a cached result below
data.append([])
data.append(["S-999", None, 1, False, None, "after a blank row", None])
path = os.path.join(folder, "lims.xlsx")
book.save(path)
# openpyxl writes formulas without a cached value: put one in as Excel would.
with zipfile.ZipFile(path) as source:
    parts = {item: source.read(item) for item in source.namelist()}
sheet_xml = parts["xl/worksheets/sheet2.xml"].decode()
start = sheet_xml.index('<c r="C6"')
end = sheet_xml.index("</c>", start) + 4
sheet_xml = sheet_xml[:start] + '<c r="C6"><f>B6*2</f><v>99</v></c>' + sheet_xml[end:]
parts["xl/worksheets/sheet2.xml"] = sheet_xml.encode()
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
    for item, content in parts.items():
        target.writestr(item, content)

for name, options in [
    ("excel by sheet name, header after skiprows", {"sheet_name": "Data", "skiprows": 2, "localtz": "Europe/Berlin"}),
    ("excel by sheet index, header row 2", {"sheet_name": 1, "header": 2, "localtz": "Europe/Berlin"}),
    ("excel nrows and usecols letters", {"sheet_name": "Data", "skiprows": [0, 1], "nrows": 10, "usecols": "A:B,E"}),
    ("excel usecols names", {"sheet_name": "Data", "header": 2, "usecols": ["sample", "count", "passed"]}),
    ("excel without header", {"sheet_name": "Data", "header": None, "skiprows": 3, "nrows": 5, "usecols": [0, 1, 3]}),
    ("excel first sheet by default", {}),
]:
    kwargs = {k: v for k, v in options.items() if k != "localtz"}
    frame = pd.read_excel(path, engine="openpyxl", **kwargs)
    add(name, {"parser_type": "excel", "file": "lims.xlsx", "options": options}, frame, options.get("localtz", "UTC"))

# ---------------------------------------------------------------- JSON
doc = {"site": "plant 1", "data": {"rows": [
    {"machine": {"id": "M1", "line": {"name": "L1", "speed": 1.5}}, "count": 3, "ok": True, "tags": ["a", "b"], "note": None},
    {"machine": {"id": "M2", "line": {"name": "L2", "speed": 2}}, "count": 4, "ok": False, "tags": [], "extra": "only here"},
    {"machine": {"id": "M3"}, "count": -7, "ok": True, "tags": [1, {"x": 2}], "note": "Grüße"},
]}}
with open(os.path.join(folder, "mes.json"), "w", encoding="utf-8") as f:
    json.dump(doc, f, ensure_ascii=False, indent=2)
add("json record_path", {"parser_type": "json", "file": "mes.json", "options": {"record_path": ["data", "rows"]}}, pd.json_normalize(doc, record_path=["data", "rows"]))
with open(os.path.join(folder, "list.json"), "w", encoding="utf-8") as f:
    json.dump(doc["data"]["rows"], f)
add("json array of records", {"parser_type": "json", "file": "list.json", "options": {}}, pd.json_normalize(doc["data"]["rows"]))
lines = [{"t": f"2024-01-0{1 + i % 9} 0{i % 10}:00:00", "v": i / 4, "m": {"id": i}} for i in range(25)]
with open(os.path.join(folder, "events.ndjson"), "w", encoding="utf-8") as f:
    f.write("\n".join(json.dumps(line) for line in lines) + "\n")
frame = pd.json_normalize(lines)
frame["t"] = pd.to_datetime(frame["t"], format="%Y-%m-%d %H:%M:%S")
add("json lines", {"parser_type": "json", "file": "events.ndjson", "options": {"lines": True, "localtz": "America/Chicago", "parse_timestamps": [{"field_name": "t", "format": "%Y-%m-%d %H:%M:%S"}]}}, frame, "America/Chicago")

# ---------------------------------------------------------------- XML
xml = """<?xml version="1.0" encoding="windows-1252"?>
<plant name="P1">
  <line id="L1">
    <machine id="M1" state="run"><temp>21.5</temp><count>007</count><label>Öfen ä</label><empty/></machine>
    <machine id="M2" state="stop"><temp>-3</temp><count>12</count><label>Press</label><empty/></machine>
  </line>
  <line id="L2">
    <machine id="M3" state="run"><temp>1e3</temp><count>0</count><label>Saw</label><empty>NA</empty></machine>
  </line>
  <spare><machine id="X9"><temp>5</temp></machine></spare>
</plant>
"""
with open(os.path.join(folder, "scada.xml"), "wb") as f:
    f.write(xml.encode("cp1252"))
for name, xpath in [("xml //Tag", "//machine"), ("xml /a/b/c", "/plant/line/machine"), ("xml //a/b", "//line/machine")]:
    add(name, {"parser_type": "xml", "file": "scada.xml", "options": {"xpath": xpath}}, pd.read_xml(os.path.join(folder, "scada.xml"), xpath=xpath, parser="lxml", encoding="cp1252"))
ns = """<?xml version="1.0" encoding="UTF-8"?>
<doc:report xmlns:doc="urn:bench" xmlns:q="urn:quality">
  <doc:row run="1"><doc:part>A-1</doc:part><q:result>pass</q:result><doc:weight>1.25</doc:weight></doc:row>
  <doc:row run="2"><doc:part>A-2</doc:part><q:result>fail</q:result><doc:weight>1.5</doc:weight></doc:row>
</doc:report>
"""
with open(os.path.join(folder, "bench.xml"), "w", encoding="utf-8") as f:
    f.write(ns)
add("xml namespaces", {"parser_type": "xml", "file": "bench.xml", "options": {"xpath": "//d:row", "namespaces": {"d": "urn:bench"}}},
    pd.read_xml(io.BytesIO(open(os.path.join(folder, "bench.xml"), "rb").read()), xpath="//d:row", namespaces={"d": "urn:bench"}, parser="lxml"))

json.dump(cases, sys.stdout)

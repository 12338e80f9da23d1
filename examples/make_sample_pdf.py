"""Write the synthetic sample PDF (examples/papers/) and an image-only PDF (a test fixture).

A minimal PDF writer: one Helvetica text line per ``Tj`` operator, so any PDF
text extractor (pypdf) reads the words back. Run from the checkout:

    python examples/make_sample_pdf.py [--image-only tests/loaders/fixtures/image-only.pdf]
"""

from __future__ import annotations

import argparse
import textwrap
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "papers" / "synthetic-street-trees.pdf"

TITLE = "Street trees and pavement heat in a synthetic city"
PAPER = [
    (None, [TITLE, "A. Example and B. Placeholder, Synthetic Institute of Examples"]),
    ("Abstract", [
        "This paper is synthetic. It was written for the claimgraph examples and reports no real measurements. "
        "We ask whether street trees lower the surface temperature of pavements on summer afternoons.",
    ]),
    ("1. Introduction", [
        "Dark pavements absorb sunlight and heat the air of city streets. Trees shade the ground and release water "
        "vapour through their leaves. We hypothesise that streets with more tree cover have cooler pavements in the "
        "afternoon. Whether the cooling persists after sunset is an open question.",
    ]),
    ("2. Methods", [
        "We measured pavement temperature on forty streets of an imaginary town with a handheld infrared "
        "thermometer. Tree cover was estimated from aerial photographs as the share of the street shaded at noon. "
        "A linear regression related pavement temperature to tree cover, adjusting for street width.",
    ]),
    ("3. Results", [
        "Streets with high tree cover were 6 degrees cooler at 3 pm than streets without trees. Each additional "
        "10 percent of tree cover was associated with a 1.2 degree lower pavement temperature. After sunset the "
        "difference fell to 1 degree.",
    ]),
    ("4. Discussion", [
        "Shade, not evaporation, likely explains most of the afternoon cooling. The small difference at night "
        "suggests that trees also slow the release of stored heat. Wider streets may weaken the effect of trees.",
    ]),
    ("References", ["1. Placeholder A. An imaginary survey of imaginary streets. Journal of Examples 1, 1-2 (2000)."]),
]


def pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def text_page_streams(paper: list[tuple[str | None, list[str]]], lines_per_page: int = 40) -> list[bytes]:
    """Content streams with one positioned text line each; headings in bold."""
    lines: list[tuple[str, str]] = []
    for heading, paragraphs in paper:
        if heading:
            lines.append(("F2", heading))
        for paragraph in paragraphs:
            lines.extend(("F1", line) for line in textwrap.wrap(paragraph, 88))
            lines.append(("F1", ""))
    pages = [lines[i:i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    streams = []
    for page in pages:
        operators = []
        for row, (font, line) in enumerate(page):
            if line:
                operators.append(f"BT /{font} 10 Tf 60 {760 - 16 * row} Td {pdf_string(line)} Tj ET")
        streams.append("\n".join(operators).encode("latin-1"))
    return streams


def write_pdf(path: Path, page_streams: list[bytes], resources: str, extra_objects: list[bytes] = (), title: str | None = None) -> None:
    """Serialize catalog, pages, fonts/images and content streams with a correct xref table."""
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: pages (filled below)
    objects.extend(extra_objects)
    page_numbers = []
    for stream in page_streams:
        data = zlib.compress(stream)
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")
        content = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources {resources} /Contents {content} 0 R >>".encode())
        page_numbers.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{n} 0 R" for n in page_numbers)
    objects[1] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_numbers)} >>".encode()
    info = None
    if title:
        objects.append(f"<< /Title {pdf_string(title)} /Producer (claimgraph examples/make_sample_pdf.py) >>".encode("latin-1"))
        info = len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    trailer = f"<< /Size {len(objects) + 1} /Root 1 0 R" + (f" /Info {info} 0 R" if info else "") + " >>"
    out += f"trailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n".encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))


def write_text_pdf(path: Path, paper: list[tuple[str | None, list[str]]] = PAPER, title: str | None = TITLE) -> None:
    fonts = [
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    ]
    write_pdf(path, text_page_streams(paper), "<< /Font << /F1 3 0 R /F2 4 0 R >> >>", fonts, title)


def write_image_only_pdf(path: Path) -> None:
    """One page showing an 8x8 grey image and no text, like a scanned page."""
    pixels = bytes((x * 32 + y * 4) % 256 for y in range(8) for x in range(8))
    image = b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length %d >>\nstream\n" % len(pixels) + pixels + b"\nendstream"
    write_pdf(path, [b"q 400 0 0 400 100 300 cm /Im1 Do Q"], "<< /XObject << /Im1 3 0 R >> >>", [image])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=SAMPLE)
    parser.add_argument("--image-only", type=Path, help="also write an image-only PDF here")
    args = parser.parse_args()
    write_text_pdf(args.output)
    print(f"wrote {args.output}")
    if args.image_only:
        write_image_only_pdf(args.image_only)
        print(f"wrote {args.image_only}")


if __name__ == "__main__":
    main()

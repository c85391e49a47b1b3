#!/usr/bin/env python3
"""An independent reader of hpf archives, written from docs/FORMAT.md alone.

Python 3.11 standard library only: it needs neither a JVM nor sux4j. It lists an archive,
gets a member and verifies every byte, on a local file system or over WebHDFS (plain HTTP,
which every HDFS cluster serves):

    hpf_read.py ls     [-l] ARCHIVE
    hpf_read.py get    ARCHIVE NAME [-o FILE]
    hpf_read.py extract ARCHIVE DIR
    hpf_read.py verify ARCHIVE

ARCHIVE is a local directory, or webhdfs://host:port/path/to/archive.hpf (the NameNode's HTTP
address; --user NAME adds user.name=NAME for clusters with simple authentication).

It finds a record through the bucket's function where the function is one whose bytes
FORMAT.md defines (codecs 3 and 4, "Function codec 3: distinguishing bits"), and otherwise by
searching the bucket's records, which are in increasing order of their hash (FORMAT.md,
"Finding a record without the function"): it needs no sux4j for codecs 1 and 2. Every check
the format defines is made on what is read: CRC32C of headers, footers, function sections,
record groups, names blocks, entry headers, chunks and contents; LZ4 blocks are decoded here. Exit codes are hpf's: 0 ok, 1 error, 2 bad usage, 3 not found, 4 corrupt
archive (verify found problems), 5 unsupported format version.
"""

import argparse
import hashlib
import json
import os
import struct
import sys
import urllib.error
import urllib.parse
import urllib.request

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_CORRUPT, EXIT_VERSION = 0, 1, 2, 3, 4, 5

# ---------------------------------------------------------------------------- errors


class HpfError(Exception):
    exit_code = EXIT_ERROR


class CorruptArchive(HpfError):
    """Bytes that break the format: names the file and offset."""
    exit_code = EXIT_CORRUPT

    def __init__(self, file, offset, message):
        super().__init__(f"{file} at offset {offset}: {message}")


class ArchiveVersionError(HpfError):
    """A file of a version this reader does not read (newer or older than it knows)."""
    exit_code = EXIT_VERSION

    def __init__(self, file, kind, version, supported):
        side = "too new" if version > max(supported) else "too old"
        super().__init__(f"{file}: {KIND_LABELS[kind]} version {version} is {side}; this reader "
                         f"reads versions {min(supported)} to {max(supported)}")


class NotFound(HpfError):
    exit_code = EXIT_NOT_FOUND


# ---------------------------------------------------------------------------- checksums

def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data, crc=0):
    """CRC-32C (Castagnoli), reflected, as java.util.zip.CRC32C computes it."""
    table = _CRC_TABLE
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# ---------------------------------------------------------------------------- name hashes

_M64 = 0xFFFFFFFFFFFFFFFF


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & _M64


def _fmix(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & _M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & _M64
    return k ^ (k >> 33)


def murmur3_x64_128(data, seed=0):
    """MurmurHash3 x64 128-bit, as Guava's HashCode.asBytes() writes it (h1, h2 little-endian)."""
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    h1 = h2 = seed
    n = len(data)
    blocks = n // 16
    for i in range(blocks):
        k1 = int.from_bytes(data[16 * i:16 * i + 8], "little")
        k2 = int.from_bytes(data[16 * i + 8:16 * i + 16], "little")
        h1 ^= (_rotl((k1 * c1) & _M64, 31) * c2) & _M64
        h1 = (((_rotl(h1, 27) + h2) & _M64) * 5 + 0x52DCE729) & _M64
        h2 ^= (_rotl((k2 * c2) & _M64, 33) * c1) & _M64
        h2 = (((_rotl(h2, 31) + h1) & _M64) * 5 + 0x38495AB5) & _M64
    tail = data[16 * blocks:]
    if len(tail) > 8:
        h2 ^= (_rotl((int.from_bytes(tail[8:], "little") * c2) & _M64, 33) * c1) & _M64
    if tail:
        h1 ^= (_rotl((int.from_bytes(tail[:8], "little") * c1) & _M64, 31) * c2) & _M64
    h1 ^= n
    h2 ^= n
    h1 = (h1 + h2) & _M64
    h2 = (h2 + h1) & _M64
    h1, h2 = _fmix(h1), _fmix(h2)
    h1 = (h1 + h2) & _M64
    h2 = (h2 + h1) & _M64
    return h1.to_bytes(8, "little") + h2.to_bytes(8, "little")


def name_hash(algorithm, name):
    """H: the 16-byte hash of a name's UTF-8 bytes (manifest HashAlgorithm 1 or 2)."""
    data = name.encode("utf-8")
    if algorithm == 1:
        return murmur3_x64_128(data)
    if algorithm == 2:
        return hashlib.sha256(data).digest()[:16]
    raise HpfError(f"unknown hash algorithm {algorithm}")


# ---------------------------------------------------------------------------- LZ4 block

def lz4_block_decode(src, original_length, file, offset):
    """Decodes one LZ4 block that must decompress to exactly original_length bytes."""
    out = bytearray()
    i, n = 0, len(src)

    def bad(what):
        return CorruptArchive(file, offset, f"LZ4 block: {what}")

    def length(value, what):
        """A 4-bit length; 15 means bytes follow, each added, until one below 255."""
        nonlocal i
        if value == 15:
            while True:
                if i >= n:
                    raise bad(f"ends inside a {what} length")
                b = src[i]
                i += 1
                value += b
                if b != 255:
                    break
        return value

    while True:
        if i >= n:
            raise bad("ends inside a sequence")
        token = src[i]
        i += 1
        literals = length(token >> 4, "literal")
        if i + literals > n:
            raise bad("literals run past the block")
        out += src[i:i + literals]
        i += literals
        if i == n:
            break  # the last sequence holds literals only
        if i + 2 > n:
            raise bad("ends inside a match offset")
        distance = src[i] | (src[i + 1] << 8)
        i += 2
        if distance == 0 or distance > len(out):
            raise bad(f"match offset {distance} outside the {len(out)} bytes decoded")
        match = length(token & 15, "match") + 4
        if len(out) + match > original_length:
            raise bad(f"decodes to more than {original_length} bytes")
        start = len(out) - distance
        if distance >= match:
            out += out[start:start + match]
        else:
            pattern = bytes(out[start:])
            out += (pattern * (match // distance + 1))[:match]
    if len(out) != original_length:
        raise bad(f"decodes to {len(out)} bytes, the entry says {original_length}")
    return bytes(out)


# ---------------------------------------------------------------------------- storage

class LocalStore:
    """An archive directory on the local file system."""

    def __init__(self, root):
        self.root = root

    def location(self, name):
        return os.path.join(self.root, name)

    def list(self, directory):
        path = self.location(directory)
        if not os.path.isdir(path):
            raise NotFound(f"{path}: no such directory")
        return sorted(os.listdir(path))

    def length(self, name):
        try:
            return os.path.getsize(self.location(name))
        except FileNotFoundError:
            raise NotFound(f"{self.location(name)}: no such file") from None

    def read(self, name, offset, length):
        try:
            with open(self.location(name), "rb") as f:
                f.seek(offset)
                data = f.read(length)
        except FileNotFoundError:
            raise NotFound(f"{self.location(name)}: no such file") from None
        if len(data) != length:
            raise CorruptArchive(self.location(name), offset + len(data), "file is truncated")
        return data


class WebHdfsStore:
    """An archive directory read over WebHDFS: GETFILESTATUS, LISTSTATUS and ranged OPEN."""

    def __init__(self, url, user=None):
        parsed = urllib.parse.urlparse(url)
        self.base = f"http://{parsed.netloc}/webhdfs/v1"
        self.netloc = parsed.netloc
        self.root = parsed.path.rstrip("/")
        self.user = user

    def location(self, name):
        return f"webhdfs://{self.netloc}{self.root}/{name}"

    def _call(self, name, op, **params):
        path = urllib.parse.quote(f"{self.root}/{name}".rstrip("/"))
        params["op"] = op
        if self.user:
            params["user.name"] = self.user
        url = f"{self.base}{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                return response.read()
        except urllib.error.HTTPError as e:
            if e.code == 404:
                raise NotFound(f"{self.location(name)}: no such file") from None
            raise HpfError(f"{self.location(name)}: WebHDFS {op} failed: HTTP {e.code} "
                           f"{e.read()[:300]!r}") from None
        except urllib.error.URLError as e:
            raise HpfError(f"{self.location(name)}: WebHDFS {op} failed: {e.reason}") from None

    def list(self, directory):
        statuses = json.loads(self._call(directory, "LISTSTATUS"))["FileStatuses"]["FileStatus"]
        return sorted(s["pathSuffix"] for s in statuses)

    def length(self, name):
        return json.loads(self._call(name, "GETFILESTATUS"))["FileStatus"]["length"]

    def read(self, name, offset, length):
        if length == 0:
            return b""
        data = self._call(name, "OPEN", offset=offset, length=length)
        if len(data) != length:
            raise CorruptArchive(self.location(name), offset + len(data), "file is truncated")
        return data


def open_store(archive, user=None):
    if archive.startswith("webhdfs://"):
        return WebHdfsStore(archive, user)
    if "://" in archive and not archive.startswith("file://"):
        raise HpfError(f"{archive}: only local paths and webhdfs:// URLs are read")
    return LocalStore(archive[len("file://"):] if archive.startswith("file://") else archive)


# ---------------------------------------------------------------------------- byte reading

class Cursor:
    """Reads big-endian fields from bytes; running past the end is corruption of the file."""

    def __init__(self, data, file, offset=0):
        self.data, self.file, self.pos = data, file, offset

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise CorruptArchive(self.file, self.pos, f"needs {n} bytes, "
                                 f"{len(self.data) - self.pos} are left")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def uint(self, n):
        return int.from_bytes(self.take(n), "big")

    def sint(self, n):
        return int.from_bytes(self.take(n), "big", signed=True)

    def string16(self):
        raw = self.take(self.uint(2))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CorruptArchive(self.file, self.pos, "string is not UTF-8") from None

    def left(self):
        return len(self.data) - self.pos


# ---------------------------------------------------------------------------- header, footer

MAGIC = b"HPF\x1a"
FOOTER_MAGIC = bytes(b ^ 0xFF for b in MAGIC)
HEADER_SIZE, FOOTER_SIZE = 24, 8
KIND_MANIFEST, KIND_DIRECTORY, KIND_INDEX, KIND_PART, KIND_NAMES, KIND_JOURNAL, KIND_REMOVAL = \
    range(1, 8)
KIND_LABELS = {1: "manifest", 2: "directory", 3: "index", 4: "part", 5: "names", 6: "journal",
               7: "removal marker"}
# The versions of each kind this reader reads (FORMAT.md, the table at the top).
VERSIONS = {KIND_MANIFEST: range(1, 7), KIND_DIRECTORY: range(1, 2), KIND_INDEX: range(1, 4),
            KIND_PART: range(1, 3), KIND_NAMES: range(1, 4)}
FORMAT_VERSIONS = range(1, 8)


def check_header(data, file, kind, archive_id):
    """Magic, kind, version range and archive id, in FORMAT.md's order; returns the version."""
    if len(data) < HEADER_SIZE or data[:4] != MAGIC:
        raise CorruptArchive(file, 0, "not an hpf file")
    if data[4] != kind:
        found = KIND_LABELS.get(data[4], f"unknown kind {data[4]}")
        raise CorruptArchive(file, 4, f"expected kind {KIND_LABELS[kind]}, found {found}")
    version = data[5]
    if version not in VERSIONS[kind]:
        raise ArchiveVersionError(file, kind, version, VERSIONS[kind])
    if data[6:8] != b"\0\0":
        raise CorruptArchive(file, 6, f"reserved header bytes are {data[6:8].hex()}")
    if archive_id is not None and data[8:24] != archive_id:
        raise CorruptArchive(file, 8, f"belongs to another archive ({data[8:24].hex()}, "
                                      f"expected {archive_id.hex()})")
    return version


def check_footer(data, file):
    if len(data) < HEADER_SIZE + FOOTER_SIZE:
        raise CorruptArchive(file, len(data), "shorter than a header and a footer")
    at = len(data) - FOOTER_SIZE
    if data[at:at + 4] != FOOTER_MAGIC:
        raise CorruptArchive(file, at, "footer magic missing")
    stored = int.from_bytes(data[at + 4:], "big")
    computed = crc32c(data[:at + 4])
    if stored != computed:
        raise CorruptArchive(file, at + 4, f"file checksum 0x{stored:08X}, computed "
                                           f"0x{computed:08X}")


def read_sealed(store, name, kind, archive_id, length=None):
    """A whole file with header and footer checked; returns (version, bytes)."""
    data = store.read(name, 0, store.length(name) if length is None else length)
    file = store.location(name)
    version = check_header(data, file, kind, archive_id)
    check_footer(data, file)
    return version, data


# ---------------------------------------------------------------------------- manifest

class Bucket:
    __slots__ = ("local_depth", "generation", "bucket_id", "records", "function_length",
                 "file_length")

    def __init__(self, c):
        self.local_depth = c.uint(1)
        self.generation = c.sint(8)
        self.bucket_id = c.sint(4)
        self.records = c.sint(4)
        self.function_length = c.sint(4)
        self.file_length = c.sint(8)

    def index_file(self):
        return f"index-{self.generation:010d}-{self.bucket_id:06d}"


class Directory:
    """An extendible-hashing directory (the body between header and footer)."""

    def __init__(self, c):
        self.global_depth = c.uint(1)
        if self.global_depth > 24:
            raise CorruptArchive(c.file, c.pos - 1, f"global depth {self.global_depth} > 24")
        count = c.sint(4)
        if count < 0 or count * 29 > c.left():
            raise CorruptArchive(c.file, c.pos - 4, f"bucket count {count}")
        self.buckets = [Bucket(c) for _ in range(count)]
        if (1 << self.global_depth) * 4 > c.left():
            raise CorruptArchive(c.file, c.pos, "slots run past the directory")
        self.slots = [c.sint(4) for _ in range(1 << self.global_depth)]
        for i, b in enumerate(self.slots):
            if not 0 <= b < count:
                raise CorruptArchive(c.file, c.pos, f"slot {i} names bucket {b} of {count}")
            bucket = self.buckets[b]
            if bucket.local_depth > self.global_depth:
                raise CorruptArchive(c.file, c.pos, f"bucket {b} deeper than the directory")

    def bucket_of(self, h):
        lo = int.from_bytes(h[8:16], "big")
        return self.buckets[self.slots[lo & ((1 << self.global_depth) - 1)]]


class Manifest:
    def __init__(self, store, generation):
        self.name = f"_manifests/manifest-{generation:010d}"
        file = store.location(self.name)
        data = store.read(self.name, 0, store.length(self.name))
        if len(data) >= 6 and data[:4] == MAGIC and data[4] == KIND_REMOVAL and generation == 1:
            raise NotFound(f"{file}: the archive is being removed (hpf recover finishes that)")
        self.version = check_header(data, file, KIND_MANIFEST, None)
        check_footer(data, file)
        self.archive_id = data[8:24]
        c = Cursor(data[:-FOOTER_SIZE], file, HEADER_SIZE)
        self.generation = c.sint(8)
        if self.generation != generation:
            raise CorruptArchive(file, HEADER_SIZE, f"holds generation {self.generation}")
        self.commit_time = c.sint(8)
        self.hash_algorithm = c.uint(1)
        if self.hash_algorithm not in (1, 2) or (self.version == 1 and self.hash_algorithm != 1):
            raise CorruptArchive(file, c.pos - 1, f"hash algorithm {self.hash_algorithm}")
        self.file_count = c.sint(8)
        self.original_bytes = c.sint(8)
        self.stored_bytes = c.sint(8)
        self.bucket_capacity = c.sint(4)
        self.block_size = c.sint(8)
        self.part_size = c.sint(8)
        layer_count = c.sint(4)
        if layer_count < 1:
            raise CorruptArchive(file, c.pos - 4, f"{layer_count} index layers")
        self.layers = []  # (records, Directory)
        for _ in range(layer_count):
            if self.version == 1:
                directory_file = c.string16()
                records = c.sint(8)
                _, body = read_sealed(store, directory_file, KIND_DIRECTORY, self.archive_id)
                dc = Cursor(body[:-FOOTER_SIZE], store.location(directory_file), HEADER_SIZE)
                directory = Directory(dc)
                if dc.left():
                    raise CorruptArchive(dc.file, dc.pos, "bytes after the slots")
            else:
                records = c.sint(8)
                body = Cursor(c.take(c.sint(4)), file)
                directory = Directory(body)
                if body.left():
                    raise CorruptArchive(file, c.pos, "directory body longer than its slots")
            self.layers.append((records, directory))
        self.segments = [(c.string16(), c.sint(8)) for _ in range(c.sint(4))]
        self.parts = {}
        for _ in range(c.sint(4)):
            part_id, length, live_entries, live_bytes = c.sint(4), c.sint(8), c.sint(8), c.sint(8)
            self.parts[part_id] = (length, live_entries, live_bytes)
        self.accesses = []  # (owner, group, permission); id i is accesses[i - 1]
        if self.version >= 4:
            for _ in range(c.sint(4)):
                owner, group, permission = c.string16(), c.string16(), c.uint(2)
                if permission & 0xF000:
                    raise CorruptArchive(file, c.pos - 2, f"permission {permission:o}")
                self.accesses.append((owner, group, permission))
        if self.version >= 5:
            self.part_id_floor = c.sint(4)
            self.commit_id = c.sint(8)
            if self.parts and self.part_id_floor <= max(self.parts):
                raise CorruptArchive(file, c.pos - 12, f"part id floor {self.part_id_floor} "
                                                       f"at or below part {max(self.parts)}")
        self.base_commit_id = 0  # the commit this generation was built on; 0: unknown
        if self.version >= 6:
            self.base_commit_id = c.sint(8)
        if c.left():
            raise CorruptArchive(file, c.pos, f"{c.left()} bytes after the last field")


def newest_generation(store):
    generations = []
    for name in store.list("_manifests"):
        if name.startswith("manifest-") and name[9:].isdigit():
            generations.append(int(name[9:]))
    if not generations:
        raise NotFound(f"{store.location('')}: no committed generation (not an archive yet)")
    return max(generations)


# ---------------------------------------------------------------------------- index

TOMBSTONE_MTIME = -(1 << 47)


class Record:
    __slots__ = ("h", "part", "flags", "offset", "entry_length", "original_length", "mtime",
                 "access")

    def tombstone(self):
        return self.flags in (4, 0x80)

    def codec(self):
        return self.flags & 3


def first_difference(a, b):
    """The first bit, counted from the most significant of byte 0, where two hashes differ."""
    return 128 - (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).bit_length()


class DistinguishingBits:
    """Function codecs 3 and 4 (FORMAT.md, "Function codec 3: distinguishing bits")."""

    def __init__(self, section, count, fingerprints, file, offset):
        if count < 1 or len(section) < 1 + count // 2:
            raise CorruptArchive(file, offset, f"function section of {len(section)} bytes "
                                               f"cannot hold the bit positions of {count} keys")
        base = section[0]
        if base > 113:
            raise CorruptArchive(file, offset, f"bit position base {base} is above 113")
        n = count - 1
        nibbles = []
        for i in range(n):
            packed = section[1 + i // 2]
            nibbles.append(packed >> 4 if i % 2 == 0 else packed & 15)
        if n % 2 and section[1 + n // 2] & 15:
            raise CorruptArchive(file, offset, "the nibble after the last bit position is not 0")
        at = 1 + (n + 1) // 2
        positions = bytearray()
        for v in nibbles:
            if v < 15:
                positions.append(base + v)
                continue
            if at >= len(section):
                raise CorruptArchive(file, offset, "function section ends inside its escaped "
                                                   "bit positions")
            p = section[at]
            at += 1
            if p > 127 or base <= p < base + 15:
                raise CorruptArchive(file, offset, f"escaped bit position {p} is inside the "
                                                   f"base's values or past bit 127")
            positions.append(p)
        rest = len(section) - at
        if rest != (2 * count if fingerprints else 0):
            raise CorruptArchive(file, offset, f"function section has {rest} bytes after its "
                                               f"bit positions")
        rising = []  # no two equal positions without a smaller one between (FORMAT.md)
        for i, p in enumerate(positions):
            while rising and rising[-1] > p:
                rising.pop()
            if rising and rising[-1] == p:
                raise CorruptArchive(file, offset, f"bit position {p} at {i} repeats an earlier "
                                                   f"one with no smaller position between")
            rising.append(p)
        self.positions = bytes(positions)
        self.fingerprints = section[at:] if fingerprints else None

    def rank(self, h):
        """Descends the trie: the smallest position of a range splits it by the hash's bit."""
        key = int.from_bytes(h, "big")
        low, high = 0, len(self.positions)
        while low < high:
            span = self.positions[low:high]
            split = low + span.index(min(span))
            if key >> (127 - self.positions[split]) & 1:
                low = split + 1
            else:
                high = split
        return low

    def slot(self, h):
        """The record number of a hash of the bucket; -1 where a fingerprint rules it out."""
        r = self.rank(h)
        if self.fingerprints is not None and self.fingerprints[2 * r:2 * r + 2] != h[8:10]:
            return -1
        return r


class IndexFile:
    """One bucket's index file: header and function section checked; records read on demand."""

    def __init__(self, store, manifest, bucket):
        self.store, self.bucket = store, bucket
        self.name = bucket.index_file()
        self.file = store.location(self.name)
        if store.length(self.name) != bucket.file_length:
            raise CorruptArchive(self.file, 0, f"index file is {store.length(self.name)} bytes, "
                                               f"the directory says {bucket.file_length}")
        head = store.read(self.name, 0, min(bucket.file_length,
                                            HEADER_SIZE + 18 + bucket.function_length + 4))
        self.version = check_header(head, self.file, KIND_INDEX, manifest.archive_id)
        size = 18 if self.version >= 3 else 15
        c = Cursor(head, self.file, HEADER_SIZE)
        self.count = c.sint(4)
        self.local_depth = c.uint(1)
        self.prefix = c.sint(4)
        record_size = c.uint(1)
        self.codec = c.uint(1)
        self.function_length = c.sint(4)
        self.access_width, self.common_access = 0, 0
        if self.version >= 3:
            self.access_width, self.common_access = c.uint(1), c.uint(2)
        section_end = HEADER_SIZE + size + self.function_length
        stored = int.from_bytes(Cursor(head, self.file, section_end).take(4), "big")
        computed = crc32c(head[HEADER_SIZE:section_end])
        if stored != computed:
            raise CorruptArchive(self.file, section_end, f"function section checksum "
                                                         f"0x{stored:08X}, computed 0x{computed:08X}")
        if (self.count != bucket.records or self.function_length != bucket.function_length
                or self.local_depth != bucket.local_depth or record_size != 40):
            raise CorruptArchive(self.file, HEADER_SIZE, "index header disagrees with the "
                                                         "directory")
        if self.access_width > 2 or (self.access_width and self.common_access):
            raise CorruptArchive(self.file, HEADER_SIZE + 15, f"access width "
                                 f"{self.access_width} with common access {self.common_access}")
        self.function = head[HEADER_SIZE + size:section_end]
        self.records_offset = section_end + 4
        self.record_bytes = 40 + self.access_width
        self.group_bytes = 32 * self.record_bytes + 4
        expected = self.records_offset + self.section_length() + FOOTER_SIZE
        if expected != bucket.file_length:
            raise CorruptArchive(self.file, 0, f"index file of {bucket.file_length} bytes, its "
                                               f"header lays out {expected}")
        self.max_access = len(manifest.accesses)
        self._group_cache = {}
        self._function = None

    def section_length(self):
        if self.version == 1:
            return 40 * self.count
        return self.count * self.record_bytes + 4 * ((self.count + 31) // 32)

    def group(self, g):
        """The records of group g (version 1: record g), read and checked with one read."""
        if g in self._group_cache:
            return self._group_cache[g]
        if self.version == 1:
            at = self.records_offset + 40 * g
            raw = self.store.read(self.name, at, 40)
            stored = int.from_bytes(raw[36:], "big")
            if stored != crc32c(raw[:36]):
                raise CorruptArchive(self.file, at + 36, f"checksum of record {g} does not match")
            records = [self._record_v1(raw, at)]
        else:
            k = min(32, self.count - 32 * g)
            at = self.records_offset + self.group_bytes * g
            raw = self.store.read(self.name, at, k * self.record_bytes + 4)
            length = k * self.record_bytes
            stored = int.from_bytes(raw[length:], "big")
            computed = crc32c(raw[:length])
            if stored != computed:
                raise CorruptArchive(self.file, at + length, f"checksum of records {32 * g}.."
                                     f"{32 * g + k - 1} is 0x{stored:08X}, computed "
                                     f"0x{computed:08X}")
            records = []
            for i in range(k):
                r = self._record_v2(raw, 40 * i, at + 40 * i)
                if self.access_width:
                    w = self.access_width
                    r.access = int.from_bytes(raw[40 * k + w * i:40 * k + w * (i + 1)], "big")
                else:
                    r.access = self.common_access
                if r.tombstone():
                    if r.access:
                        raise CorruptArchive(self.file, at + 40 * i, "tombstone with an access id")
                elif r.access > self.max_access:
                    raise CorruptArchive(self.file, at + 40 * i, f"access id {r.access}, the "
                                         f"manifest has {self.max_access} classes")
                records.append(r)
        self._group_cache[g] = records
        return records

    def record(self, slot):
        per = 1 if self.version == 1 else 32
        return self.group(slot // per)[slot % per]

    def _record_v1(self, raw, at):
        r = Record()
        r.h = raw[:16]
        r.part = int.from_bytes(raw[16:19], "big")
        r.flags = raw[19]
        r.offset = int.from_bytes(raw[20:26], "big")
        r.entry_length = int.from_bytes(raw[26:31], "big")
        r.original_length = int.from_bytes(raw[31:36], "big")
        r.mtime = TOMBSTONE_MTIME
        r.access = 0
        self._check_flags(r, 0x80, at)
        return r

    def _record_v2(self, raw, i, at):
        r = Record()
        r.h = raw[i:i + 16]
        part_flags = int.from_bytes(raw[i + 16:i + 19], "big")
        r.part, r.flags = part_flags >> 3, part_flags & 7
        r.offset = int.from_bytes(raw[i + 19:i + 24], "big")
        r.entry_length = int.from_bytes(raw[i + 24:i + 29], "big")
        r.original_length = int.from_bytes(raw[i + 29:i + 34], "big")
        r.mtime = int.from_bytes(raw[i + 34:i + 40], "big", signed=True)
        self._check_flags(r, 4, at)
        return r

    def _check_flags(self, r, tombstone_flag, at):
        if r.flags & tombstone_flag:
            if (r.flags != tombstone_flag or r.part or r.offset or r.entry_length
                    or r.original_length or (self.version > 1 and r.mtime != TOMBSTONE_MTIME)):
                raise CorruptArchive(self.file, at, "tombstone with other fields set")
        elif r.flags & ~3 & (0xFF if self.version == 1 else 7) or r.codec() > 1:
            raise CorruptArchive(self.file, at, f"record flags {r.flags:#x}")

    def function_decoded(self):
        """The bucket's function of codec 3 or 4, decoded once; None for other codecs."""
        if self._function is None and self.codec in (3, 4):
            self._function = DistinguishingBits(self.function, self.count, self.codec == 4,
                                                self.file, HEADER_SIZE)
        return self._function

    def find(self, h):
        """Through the function where it is codec 3 or 4 and decodes, else by search."""
        try:
            function = self.function_decoded()
        except CorruptArchive:
            function = None  # damage confined to the function: the records still tell
        if function is None:
            return self.search(h)
        slot = function.slot(h)
        if slot < 0:
            return None
        record = self.record(slot)
        return record if record.h == h else None

    def search(self, h):
        """Binary search of the records, in increasing order of H (FORMAT.md)."""
        low, high = 0, self.count - 1
        while low <= high:
            middle = (low + high) // 2
            found = self.record(middle).h
            if found == h:
                return self.record(middle)
            if h < found:
                high = middle - 1
            else:
                low = middle + 1
        return None

    def all_records(self):
        return [self.record(i) for i in range(self.count)]


# ---------------------------------------------------------------------------- parts, entries

ENTRY_MAGIC = b"HPFE"
CHUNK = 65536


class Parts:
    def __init__(self, store, manifest):
        self.store, self.manifest, self.checked = store, manifest, {}

    def name(self, part):
        return f"part-{part:06d}"

    def version(self, part, index_file):
        """The part's version, after its header and part id are checked (once per part)."""
        if part not in self.checked:
            if part not in self.manifest.parts:
                raise CorruptArchive(index_file, 0, f"record points to part {part}, which the "
                                                    f"manifest does not name")
            name = self.name(part)
            head = self.store.read(name, 0, HEADER_SIZE + 4)
            version = check_header(head, self.store.location(name), KIND_PART,
                                   self.manifest.archive_id)
            if int.from_bytes(head[24:28], "big", signed=True) != part:
                raise CorruptArchive(self.store.location(name), 24, "part id does not match")
            self.checked[part] = version
        return self.checked[part]

    def member(self, name, record, index_file):
        """The member's bytes, every check of FORMAT.md's "Part" made; None if another name."""
        version = self.version(record.part, index_file)
        part_length = self.manifest.parts[record.part][0]
        file = self.store.location(self.name(record.part))
        if record.offset + record.entry_length > part_length - FOOTER_SIZE:
            raise CorruptArchive(file, record.offset, "entry runs past the part's last byte")
        entry = self.store.read(self.name(record.part), record.offset, record.entry_length)
        c = Cursor(entry, file)
        if c.take(4) != ENTRY_MAGIC:
            raise CorruptArchive(file, record.offset, "no entry magic")
        flags, layout = c.uint(1), c.uint(1)
        name_length = c.uint(2)
        original, stored_length, mtime = c.sint(8), c.sint(8), c.sint(8)
        entry_name = c.take(name_length)
        header_end = c.pos
        if int.from_bytes(c.take(4), "big") != crc32c(entry[:header_end]):
            raise CorruptArchive(file, record.offset + header_end, "entry header checksum "
                                                                   "does not match")
        if entry_name != name.encode("utf-8"):
            if name_hash(self.manifest.hash_algorithm, entry_name.decode("utf-8", "replace")) \
                    == record.h:
                return None  # a name with the same H: the requested one is not a member
            raise CorruptArchive(file, record.offset, f"entry holds {entry_name!r}, not {name!r}")
        if layout not in (0, 1) or (layout == 1 and (version < 2 or flags & 3 != 0
                                                     or stored_length != original)):
            raise CorruptArchive(file, record.offset + 5, f"entry layout {layout}")
        chunks = (stored_length + CHUNK - 1) // CHUNK if layout == 1 else 0
        if (flags != record.codec() or original != record.original_length
                or 36 + name_length + stored_length + 4 * chunks + 4 != record.entry_length
                or (record.mtime != TOMBSTONE_MTIME and record.mtime != mtime)):
            raise CorruptArchive(file, record.offset, "entry disagrees with its index record")
        stored = c.take(stored_length)
        for i in range(chunks):
            chunk_crc = int.from_bytes(c.take(4), "big")
            if chunk_crc != crc32c(stored[CHUNK * i:CHUNK * (i + 1)]):
                raise CorruptArchive(file, record.offset + c.pos - 4, f"checksum of chunk {i} "
                                                                      f"does not match")
        content_crc = int.from_bytes(c.take(4), "big")
        data = stored if flags == 0 else lz4_block_decode(
            stored, original, file, record.offset + header_end + 4)
        if content_crc != crc32c(data):
            raise CorruptArchive(file, record.offset + c.pos - 4, "content checksum does not "
                                                                  "match")
        return data, mtime


# ---------------------------------------------------------------------------- names segments

class NameEntry:
    __slots__ = ("op", "name", "length", "mtime", "location", "access")


def read_segment(store, manifest, name, entries_expected):
    """Every entry of a names segment, every block and the footer checked."""
    version, data = read_sealed(store, name, KIND_NAMES, manifest.archive_id)
    file = store.location(name)
    c = Cursor(data[:-FOOTER_SIZE], file, HEADER_SIZE)
    entries = []
    previous = None
    while True:
        block_start = c.pos
        count = c.sint(4)
        if count == 0:
            break
        byte_length = c.sint(4)
        if count < 0 or byte_length < 0:
            raise CorruptArchive(file, block_start, f"block of {count} entries, {byte_length} "
                                                    f"bytes")
        body = c.take(byte_length)
        if int.from_bytes(c.take(4), "big") != crc32c(data[block_start:block_start + 8]
                                                       + body):
            raise CorruptArchive(file, c.pos - 4, "names block checksum does not match")
        b = Cursor(body, file)
        for _ in range(count):
            e = NameEntry()
            e.op = b.uint(1)
            if e.op not in (1, 2, 3) or (e.op == 3 and version < 2):
                raise CorruptArchive(file, block_start, f"names entry op {e.op}")
            raw = b.take(b.uint(2))
            try:
                e.name = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise CorruptArchive(file, block_start, "a name is not UTF-8") from None
            e.length, e.mtime = b.sint(8), b.sint(8)
            e.location = None
            if version >= 2 and e.op == 1:
                e.location = (b.uint(3), b.uint(1), b.uint(5), b.uint(5))
            e.access = b.uint(2) if version >= 3 and e.op in (1, 3) else 0
            if previous is not None and raw <= previous:
                raise CorruptArchive(file, block_start, "names out of order")
            previous = raw
            entries.append(e)
        if b.left():
            raise CorruptArchive(file, block_start, "block longer than its entries")
    total = c.sint(8)
    if total != len(entries) or total != entries_expected or c.left():
        raise CorruptArchive(file, c.pos, f"segment holds {len(entries)} entries, its footer "
                                          f"says {total}, the manifest {entries_expected}")
    return entries


def listing(store, manifest):
    """The generation's names: segments merged oldest first, the newest entry winning."""
    merged = {}
    for name, entries in manifest.segments:
        for e in read_segment(store, manifest, name, entries):
            merged[e.name.encode("utf-8")] = e
    return [merged[k] for k in sorted(merged) if merged[k].op != 2]


# ---------------------------------------------------------------------------- the archive

class Archive:
    def __init__(self, store):
        self.store = store
        self.manifest = Manifest(store, newest_generation(store))
        self.parts = Parts(store, self.manifest)
        self.indexes = {}

    def index(self, bucket):
        key = bucket.index_file()
        if key not in self.indexes:
            self.indexes[key] = IndexFile(self.store, self.manifest, bucket)
        return self.indexes[key]

    def record(self, name):
        """The member's record and its index file, or None (absent or deleted)."""
        h = name_hash(self.manifest.hash_algorithm, name)
        for _, directory in reversed(self.manifest.layers):
            bucket = directory.bucket_of(h)
            if bucket.records == 0:
                continue
            index = self.index(bucket)
            record = index.find(h)
            if record is not None:
                return None if record.tombstone() else (record, index.file)
        return None

    def get(self, name):
        found = self.record(name)
        member = None if found is None else self.parts.member(name, *found)
        if member is None:
            raise NotFound(f"{self.store.location('')}: no member '{name}'")
        return member[0]

    def access(self, access_id):
        """(mode, owner, group) of an access id; id 0: not recorded (FORMAT.md: mode 0444)."""
        if access_id == 0:
            return 0o444, "-", "-"
        owner, group, permission = self.manifest.accesses[access_id - 1]
        return permission, owner, group


# ---------------------------------------------------------------------------- verify

def verify(archive, out):
    """Checks every byte; returns the problems found (empty: the archive is sound)."""
    problems = []
    m, store = archive.manifest, archive.store

    def guard(what, action):
        try:
            return action()
        except ArchiveVersionError:
            raise  # not damage: this reader cannot check such a file at all
        except HpfError as e:
            problems.append(f"{what}: {e}" if what else str(e))
            return None

    live = {}  # H -> record, newest layer winning
    for number, (records, directory) in enumerate(m.layers):
        count = 0
        layer = {}
        for bucket in directory.buckets:
            if bucket.records == 0:
                continue
            index = guard(None, lambda: archive.index(bucket))
            if index is None:
                continue
            guard(None, lambda: read_sealed(store, index.name, KIND_INDEX, m.archive_id))
            recs = guard(None, index.all_records)
            if recs is None:
                continue
            count += len(recs)
            mask = (1 << bucket.local_depth) - 1
            for i, r in enumerate(recs):
                lo = int.from_bytes(r.h[8:16], "big")
                if directory.bucket_of(r.h) is not bucket or (lo & mask) != (index.prefix & mask):
                    problems.append(f"{index.name}: record {i} belongs to another bucket")
                if i and recs[i - 1].h >= r.h:
                    problems.append(f"{index.name}: records {i - 1} and {i} out of order")
                layer[r.h] = r
            problem = function_problem(index, recs)
            if problem:
                problems.append(f"{index.name}: {problem}")
        if count != records:
            problems.append(f"index layer {number} holds {count} records, the manifest says "
                            f"{records}")
        live.update(layer)
    members = [r for r in live.values() if not r.tombstone()]
    if len(members) != m.file_count:
        problems.append(f"index holds {len(members)} records, the manifest says {m.file_count}")
    if sum(r.original_length for r in members) != m.original_bytes:
        problems.append("records' original bytes disagree with the manifest")
    if sum(r.entry_length for r in members) != m.stored_bytes:
        problems.append("records' stored bytes disagree with the manifest")
    for part, (length, live_entries, live_bytes) in sorted(m.parts.items()):
        mine = [r for r in members if r.part == part]
        if (len(mine), sum(r.entry_length for r in mine)) != (live_entries, live_bytes):
            problems.append(f"part-{part:06d}: {len(mine)} live entries, the manifest says "
                            f"{live_entries}")
        name = f"part-{part:06d}"
        if guard(name, lambda: store.length(name)) not in (length, None):
            problems.append(f"{name}: not {length} bytes as the manifest says")
        else:
            guard(None, lambda: read_sealed(store, name, KIND_PART, m.archive_id, length))
    entries = guard(None, lambda: listing(store, m)) or []
    if len(entries) != m.file_count:
        problems.append(f"names list {len(entries)} files, the manifest says {m.file_count}")
    checked = 0
    for e in entries:
        def check(e=e):
            found = archive.record(e.name)
            if found is None:
                raise NotFound(f"'{e.name}' is listed but not in the index")
            record, index_file = found
            member = archive.parts.member(e.name, record, index_file)
            if member is None:
                raise NotFound(f"'{e.name}' is listed but its entry holds another name")
            data, mtime = member
            if len(data) != e.length or mtime != e.mtime or record.access != e.access:
                raise CorruptArchive(index_file, 0, f"'{e.name}': the names file says length "
                                     f"{e.length}, mtime {e.mtime}, access {e.access}")
            if e.location is not None and e.location != (record.part, record.flags,
                                                          record.offset, record.entry_length):
                raise CorruptArchive(index_file, 0, f"'{e.name}' is elsewhere than the names "
                                                    f"file says")
            return True
        if guard(None, check):
            checked += 1
    out.write(f"{checked} members, {len(m.layers)} index layers, {len(m.parts)} parts checked\n")
    return problems


def function_problem(index, records):
    """What the format lets a reader that does not evaluate the function check of it."""
    if index.codec == 0:
        return "empty-function codec in a bucket with records"
    if index.codec == 1:
        return None if index.function_length > 0 else "function section is empty"
    if index.codec == 2:
        f = index.function
        if len(f) < 4:
            return "function section too short for codec 2"
        serialized = int.from_bytes(f[:4], "big", signed=True)
        if serialized < 0 or 4 + serialized + 2 * len(records) != len(f):
            return (f"function section of {len(f)} bytes cannot hold {serialized} function bytes "
                    f"and {len(records)} fingerprints")
        start = 4 + serialized
        for i, r in enumerate(records):
            if f[start + 2 * i:start + 2 * i + 2] != r.h[8:10]:
                return f"fingerprint {i} is not bits 63..48 of its record's H"
        return None
    if index.codec in (3, 4):
        try:
            function = index.function_decoded()
        except CorruptArchive as e:
            return f"function section cannot be decoded ({e}); its members are found by " \
                   f"searching the records"
        for i in range(1, len(records)):
            if function.positions[i - 1] != first_difference(records[i - 1].h, records[i].h):
                return f"bit position {i - 1} is not where records {i - 1} and {i} first differ"
        if function.fingerprints is not None:
            for i, r in enumerate(records):
                if function.fingerprints[2 * i:2 * i + 2] != r.h[8:10]:
                    return f"fingerprint {i} is not bits 63..48 of its record's H"
        # The positions are the records' own, so the function maps each H to its record; a
        # sample of lookups checks the evaluation itself.
        for i in range(0, len(records), max(1, len(records) // 64)):
            if function.slot(records[i].h) != i:
                return f"the function maps record {i}'s H to {function.slot(records[i].h)}"
        return None
    return (f"function codec {index.codec} is not one this reader knows; its members are "
            f"found by searching the records")


# ---------------------------------------------------------------------------- command line

def extract(archive, directory):
    """Writes every listed member to DIR/<name>; names are relative by the format's rules."""
    root = os.path.realpath(directory)
    for e in listing(archive.store, archive.manifest):
        target = os.path.realpath(os.path.join(root, e.name))
        if not target.startswith(root + os.sep):
            raise CorruptArchive(archive.store.location(""), 0, f"name '{e.name}' escapes "
                                                                f"{directory}")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(archive.get(e.name))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="hpf_read.py", description=__doc__.split("\n")[0])
    parser.add_argument("--user", help="WebHDFS user.name (simple authentication)")
    sub = parser.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("ls", help="list the members")
    ls.add_argument("-l", "--long", action="store_true",
                    help="length, mtime (ms), access id, octal mode, owner, group, name (TABs); "
                         "a member without a recorded access (id 0) shows 0444 - -")
    ls.add_argument("archive")
    get = sub.add_parser("get", help="one member's bytes, checked, to stdout or a file")
    get.add_argument("archive")
    get.add_argument("name")
    get.add_argument("-o", "--output")
    ext = sub.add_parser("extract", help="every member, checked, to a file under DIR")
    ext.add_argument("archive")
    ext.add_argument("directory")
    ver = sub.add_parser("verify", help="read and check every byte")
    ver.add_argument("archive")
    args = parser.parse_args(argv)
    try:
        archive = Archive(open_store(args.archive, args.user))
        if args.command == "ls":
            out = sys.stdout
            for e in listing(archive.store, archive.manifest):
                if args.long:
                    mode, owner, group = archive.access(e.access)
                    out.write(f"{e.length}\t{e.mtime}\t{e.access}\t{mode:04o}\t{owner}\t{group}\t"
                              f"{e.name}\n")
                else:
                    out.write(e.name + "\n")
        elif args.command == "get":
            data = archive.get(args.name)
            if args.output:
                with open(args.output, "wb") as f:
                    f.write(data)
            else:
                sys.stdout.buffer.write(data)
        elif args.command == "extract":
            extract(archive, args.directory)
        else:
            problems = verify(archive, sys.stdout)
            for p in problems:
                sys.stdout.write(f"problem: {p}\n")
            if problems:
                sys.stderr.write(f"hpf_read: {len(problems)} problems found\n")
                return EXIT_CORRUPT
            sys.stdout.write("ok\n")
        return EXIT_OK
    except HpfError as e:
        sys.stderr.write(f"hpf_read: {e}\n")
        return e.exit_code
    except OSError as e:
        sys.stderr.write(f"hpf_read: {e}\n")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())

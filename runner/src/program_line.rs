//! The `ptxdiff eval` program line (docs/EVAL.md, program lines), both ways: the
//! writer ([`program_line`]: a [`MemSource`] as the line that reproduces it, the case file of
//! an async conform or `fuzz --async` finding) and the reader ([`program_source`]: a line's
//! object as a [`MemSource`], for `eval`). Invariant: the reader gives back the source the
//! writer wrote (`gpu_memprog`'s round-trip test).

use oracle::memory::tensor_map::MapMode;
use oracle::memprog::{Init, MemSource};
use serde_json::{json, Map, Value};

/// A hex string operand (`"0x3f800000"`) of a line: instruction operands and registers alike;
/// `Err` names the operand `name`.
pub fn parse_hex(name: &str, v: &Value) -> Result<u128, String> {
    let s = v.as_str().ok_or_else(|| format!("operand `{name}` must be a hex string like \"0x3f800000\""))?;
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| format!("operand `{name}` = \"{s}\" must start with 0x"))?;
    if digits.is_empty() || digits.len() > 32 {
        return Err(format!("operand `{name}` = \"{s}\" is not a hex value of at most 128 bits"));
    }
    u128::from_str_radix(digits, 16).map_err(|_| format!("operand `{name}` = \"{s}\" is not hexadecimal"))
}

/// An input register of a program line: `"0x3"` (typed by its first use; the digits as written
/// are kept: 8 of them make a 32-bit integer where the type decides the meaning) or `{"u32": "0x3"}`
/// (a PTX register type: `pred`, `b16`/`u16`/`s16`, `b32`/`u32`/`s32`/`f32`, `b64`/`u64`/`s64`/`f64`,
/// …; its class is declared before the statements).
fn input_reg(name: &str, v: &Value) -> Result<oracle::memprog::InputReg, String> {
    use oracle::isa::qualifier::Qualifier;
    use oracle::isa::types::RegType;
    use oracle::program::RegClass;
    let value = |x: &Value| {
        let x = parse_hex(name, x)?;
        u64::try_from(x).map_err(|_| format!("register `{name}` = {x:#x} is wider than 64 bits"))
    };
    match v {
        Value::Object(o) => {
            let [(ty, x)] = o.iter().collect::<Vec<_>>()[..] else {
                return Err(format!("register `{name}`: give one type and its value, as {{\"u32\": \"0x3\"}}"));
            };
            let class =
                RegType::ALL.iter().find(|t| t.token() == ty).and_then(|&t| RegClass::of(t)).ok_or_else(|| {
                    format!("register `{name}`: `{ty}` is not a register type (pred, b16, u32, s64, …)")
                })?;
            Ok(oracle::memprog::InputReg::typed(class, value(x)?))
        }
        // The digits as written: 8 of them make a 32-bit integer where the type decides.
        x => Ok(match x.as_str().and_then(|t| t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))) {
            Some(digits) => oracle::memprog::InputReg::written(value(x)?, 4 * digits.len() as u32),
            None => value(x)?.into(),
        }),
    }
}

/// The fields a program line may have.
const PROGRAM_FIELDS: [&str; 8] = ["program", "threads", "cluster", "regs", "buffers", "tensor_maps", "read", "target"];
/// The fields a buffer may have.
const BUFFER_FIELDS: [&str; 5] = ["space", "hex", "len", "fill", "align"];
/// The key of the output object that names the allowances of unknown bytes.
pub const ALLOWANCES_KEY: &str = "allowances";

/// A memory program line's description (docs/EVAL.md, program lines) as a
/// [`MemSource`]; `Err` names what is wrong with the line. [`program_line`]
/// writes the same shape back.
pub fn program_source(obj: &Map<String, Value>) -> Result<MemSource, String> {
    use oracle::memory::{Byte, Region};
    use oracle::memprog::{BufferSource, BufferSpace, Init};
    if let Some(k) = obj.keys().find(|k| !PROGRAM_FIELDS.contains(&k.as_str())) {
        return Err(format!("unknown field \"{k}\" (a program line has {})", PROGRAM_FIELDS.join(", ")));
    }
    let statements: Vec<String> = obj
        .get("program")
        .and_then(Value::as_array)
        .ok_or("\"program\" must be an array of statement strings")?
        .iter()
        .map(|s| s.as_str().map(str::to_string).ok_or("\"program\" must be an array of statement strings"))
        .collect::<Result<_, _>>()?;
    let target = match obj.get("target") {
        None => oracle::isa::Target::parse("sm_90").map_err(|e| e.to_string())?,
        Some(t) => {
            let t = t.as_str().ok_or("\"target\" must be a string such as \"sm_90a\"")?;
            oracle::isa::Target::parse(t).map_err(|e| e.to_string())?
        }
    };
    let threads = match obj.get("threads") {
        None => 1,
        Some(v) => {
            v.as_u64().filter(|n| (1..=1024).contains(n)).ok_or("\"threads\" must be an integer 1…1024 (one CTA)")?
                as u32
        }
    };
    let cluster = match obj.get("cluster") {
        None => 1,
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=u64::from(oracle::memprog::MAX_CLUSTER)).contains(n))
            .ok_or("\"cluster\" must be an integer 1…8 (CTAs of the one cluster)")? as u32,
    };
    let mut regs = std::collections::BTreeMap::new();
    if let Some(r) = obj.get("regs") {
        for (k, v) in r.as_object().ok_or("\"regs\" must be an object of name: hex string or {type: hex string}")? {
            regs.insert(k.clone(), input_reg(k, v)?);
        }
    }
    let mut buffers = Vec::new();
    if let Some(b) = obj.get("buffers") {
        for (name, spec) in b.as_object().ok_or("\"buffers\" must be an object of name: buffer")? {
            let err = |m: &str| format!("buffer `{name}`: {m}");
            if name == ALLOWANCES_KEY || regs.contains_key(name) {
                return Err(err("the name is taken (by the output's \"allowances\" key or an input register)"));
            }
            let spec = spec.as_object().ok_or_else(|| err("must be an object"))?;
            if let Some(k) = spec.keys().find(|k| !BUFFER_FIELDS.contains(&k.as_str())) {
                return Err(err(&format!("unknown field \"{k}\" (a buffer has {})", BUFFER_FIELDS.join(", "))));
            }
            let space = match spec.get("space").and_then(Value::as_str) {
                Some("global") => BufferSpace::Global,
                Some("shared") => BufferSpace::Shared,
                _ => return Err(err("\"space\" must be \"global\" or \"shared\"")),
            };
            let len = match spec.get("len") {
                None => None,
                Some(v) => Some(v.as_u64().filter(|&n| n <= oracle::memprog::MAX_PROGRAM_BYTES).ok_or_else(|| {
                    err("\"len\" must be an integer ≤ 2^26 (64 MiB, the most a program's buffers hold together)")
                })?),
            };
            let fill = match spec.get("fill") {
                None => None,
                Some(v) => {
                    let s = v.as_str().ok_or_else(|| err("\"fill\" must be one hex byte such as \"a5\""))?;
                    let r = Region::from_hex(s).map_err(|e| err(&format!("\"fill\": {e}")))?;
                    match r.bytes() {
                        [b] => Some(*b),
                        _ => return Err(err("\"fill\" must be one hex byte such as \"a5\"")),
                    }
                }
            };
            let init = match (spec.get("hex"), len, fill) {
                (Some(h), l, None) => {
                    let h = h.as_str().ok_or_else(|| err("\"hex\" must be a string of hex byte pairs"))?;
                    let r = Region::from_hex(h).map_err(|e| err(&format!("\"hex\": {e}")))?;
                    if l.is_some_and(|l| l != r.len() as u64) {
                        return Err(err("\"len\" differs from the length of \"hex\""));
                    }
                    Init::Hex(h.to_string())
                }
                (Some(_), _, Some(_)) => return Err(err("give \"hex\" or \"fill\", not both")),
                (None, Some(l), Some(Byte::Known(b))) => Init::Fill { len: l, byte: Some(b) },
                (None, Some(l), Some(Byte::Unknown(_))) => Init::Hex("??".repeat(l as usize)),
                // Never-written shared memory is any value; global memory starts zeroed.
                (None, Some(l), None) => Init::Fill { len: l, byte: None },
                (None, None, _) => return Err(err("needs \"hex\" or \"len\"")),
            };
            let align = match spec.get("align") {
                None if space == BufferSpace::Global => 256,
                None => 16,
                Some(v) => v
                    .as_u64()
                    .filter(|a| a.is_power_of_two() && *a <= 1 << 20)
                    .ok_or_else(|| err("\"align\" must be a power of two ≤ 2^20"))?,
            };
            buffers.push(BufferSource { name: name.clone(), space, init, align });
        }
    }
    let mut tensor_maps = Vec::new();
    if let Some(m) = obj.get("tensor_maps") {
        for (name, spec) in m.as_object().ok_or("\"tensor_maps\" must be an object of name: tensor map")? {
            tensor_maps.push(tensor_map(name, spec, &buffers)?);
        }
    }
    let mut read = Vec::new();
    for r in obj.get("read").and_then(Value::as_array).ok_or("\"read\" must be an array of buffer names")? {
        let n = r.as_str().ok_or("\"read\" must be an array of buffer names")?;
        if !buffers.iter().any(|b| b.name == n) {
            return Err(format!("unknown buffer `{n}` in \"read\""));
        }
        read.push(n.to_string());
    }
    Ok(MemSource { target, threads, cluster, statements, regs, buffers, tensor_maps, read })
}

/// The fields a tensor map may have.
const TENSOR_MAP_FIELDS: [&str; 17] = [
    "global",
    "object",
    "global_offset",
    "mode",
    "dtype",
    "dims",
    "strides",
    "box",
    "element_strides",
    "interleave",
    "swizzle",
    "l2_promotion",
    "oob_fill",
    "lower_corner",
    "upper_corner",
    "channels_per_pixel",
    "pixels_per_column",
];

/// One entry of `"tensor_maps"`: the encode arguments by their `CU_TENSOR_MAP_*` suffixes.
fn tensor_map(
    name: &str,
    spec: &Value,
    buffers: &[oracle::memprog::BufferSource],
) -> Result<oracle::memprog::TensorMapSource, String> {
    use oracle::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap};
    let err = |m: String| format!("tensor map `{name}`: {m}");
    let spec = spec.as_object().ok_or_else(|| err("must be an object".into()))?;
    if let Some(k) = spec.keys().find(|k| !TENSOR_MAP_FIELDS.contains(&k.as_str())) {
        return Err(err(format!("unknown field \"{k}\" (a tensor map has {})", TENSOR_MAP_FIELDS.join(", "))));
    }
    let text = |k: &str, default: Option<&'static str>| -> Result<String, String> {
        match spec.get(k) {
            Some(v) => v.as_str().map(str::to_string).ok_or_else(|| err(format!("\"{k}\" must be a string"))),
            None => default.map(str::to_string).ok_or_else(|| err(format!("missing \"{k}\""))),
        }
    };
    let enum_of = |k: &str, default: Option<&'static str>, names: &[&str]| -> Result<String, String> {
        let v = text(k, default)?;
        if names.contains(&v.as_str()) {
            Ok(v)
        } else {
            Err(err(format!("\"{k}\" = \"{v}\" is not one of {}", names.join(", "))))
        }
    };
    let ints = |k: &str, required: bool| -> Result<Vec<i64>, String> {
        match spec.get(k) {
            None if !required => Ok(Vec::new()),
            None => Err(err(format!("missing \"{k}\""))),
            Some(v) => v
                .as_array()
                .and_then(|a| a.iter().map(Value::as_i64).collect::<Option<Vec<_>>>())
                .ok_or_else(|| err(format!("\"{k}\" must be an array of integers"))),
        }
    };
    let unsigned = |k: &str, v: Vec<i64>, max: u64| -> Result<Vec<u64>, String> {
        v.into_iter()
            .map(|x| {
                u64::try_from(x)
                    .ok()
                    .filter(|&x| x <= max)
                    .ok_or_else(|| err(format!("\"{k}\" entry {x} out of range")))
            })
            .collect()
    };
    let names = |all: Vec<&'static str>| all;
    let dtype = TensorDataType::from_name(&enum_of(
        "dtype",
        None,
        &names(TensorDataType::ALL.iter().map(|d| d.name()).collect()),
    )?)
    .ok_or_else(|| err("bad dtype".into()))?;
    let interleave = Interleave::from_name(&enum_of(
        "interleave",
        Some("NONE"),
        &names(Interleave::ALL.iter().map(|d| d.name()).collect()),
    )?)
    .ok_or_else(|| err("bad interleave".into()))?;
    let swizzle =
        Swizzle::from_name(&enum_of("swizzle", Some("NONE"), &names(Swizzle::ALL.iter().map(|d| d.name()).collect()))?)
            .ok_or_else(|| err("bad swizzle".into()))?;
    let l2_promotion = L2Promotion::from_name(&enum_of(
        "l2_promotion",
        Some("NONE"),
        &names(L2Promotion::ALL.iter().map(|d| d.name()).collect()),
    )?)
    .ok_or_else(|| err("bad l2_promotion".into()))?;
    let oob_fill = OobFill::from_name(&enum_of(
        "oob_fill",
        Some("NONE"),
        &names(OobFill::ALL.iter().map(|d| d.name()).collect()),
    )?)
    .ok_or_else(|| err("bad oob_fill".into()))?;
    let global = text("global", None)?;
    if !buffers.iter().any(|b| b.name == global) {
        return Err(err(format!("unknown buffer `{global}`")));
    }
    let global_offset = match spec.get("global_offset") {
        None => 0,
        Some(v) => v.as_u64().ok_or_else(|| err("\"global_offset\" must be a non-negative integer".into()))?,
    };
    let u32s = |k: &str, required: bool| -> Result<Vec<u32>, String> {
        Ok(unsigned(k, ints(k, required)?, u64::from(u32::MAX))?.into_iter().map(|x| x as u32).collect())
    };
    let mode = match text("mode", Some("tiled"))?.as_str() {
        "tiled" => MapMode::Tiled,
        "im2col" => {
            let corner = |k: &str| -> Result<Vec<i32>, String> {
                ints(k, true)?
                    .into_iter()
                    .map(|x| i32::try_from(x).map_err(|_| err(format!("\"{k}\" entry {x} out of range"))))
                    .collect()
            };
            let one = |k: &str| -> Result<u32, String> {
                spec.get(k)
                    .and_then(Value::as_u64)
                    .and_then(|x| u32::try_from(x).ok())
                    .ok_or_else(|| err(format!("missing or bad \"{k}\"")))
            };
            MapMode::Im2col {
                lower_corner: corner("lower_corner")?,
                upper_corner: corner("upper_corner")?,
                channels_per_pixel: one("channels_per_pixel")?,
                pixels_per_column: one("pixels_per_column")?,
            }
        }
        m => return Err(err(format!("\"mode\" = \"{m}\" is not \"tiled\" or \"im2col\""))),
    };
    let map = TensorMap {
        box_dims: u32s("box", mode == MapMode::Tiled)?,
        mode,
        dtype,
        global_address: 0,
        dims: unsigned("dims", ints("dims", true)?, u64::MAX)?,
        strides: unsigned("strides", ints("strides", true)?, u64::MAX)?,
        element_strides: u32s("element_strides", true)?,
        interleave,
        swizzle,
        l2_promotion,
        oob_fill,
    };
    let object = match spec.get("object") {
        None => None,
        Some(v) => {
            let o = v.as_str().ok_or_else(|| err("\"object\" must be a buffer name".into()))?;
            if !buffers.iter().any(|b| b.name == o) {
                return Err(err(format!("unknown buffer `{o}` as \"object\"")));
            }
            Some(o.to_string())
        }
    };
    Ok(oracle::memprog::TensorMapSource { name: name.to_string(), global, global_offset, map, object })
}

/// `src` as a `ptxdiff eval` program line (docs/EVAL.md): running it with `eval`
/// gives the oracle's bytes, with `eval --backend` a backend's.
pub fn program_line(src: &MemSource) -> Value {
    let mut buffers = Map::new();
    for b in &src.buffers {
        let mut o = Map::new();
        o.insert("space".into(), json!(b.space.name()));
        match &b.init {
            Init::Hex(h) => {
                o.insert("hex".into(), json!(h));
            }
            Init::Fill { len, byte } => {
                o.insert("len".into(), json!(len));
                if let Some(v) = byte {
                    o.insert("fill".into(), json!(format!("{v:02x}")));
                }
            }
        }
        o.insert("align".into(), json!(b.align));
        buffers.insert(b.name.clone(), Value::Object(o));
    }
    let mut maps = Map::new();
    for t in &src.tensor_maps {
        let m = &t.map;
        let mut o = Map::new();
        o.insert("global".into(), json!(t.global));
        if t.global_offset != 0 {
            o.insert("global_offset".into(), json!(t.global_offset));
        }
        if let Some(object) = &t.object {
            o.insert("object".into(), json!(object));
        }
        o.insert("dtype".into(), json!(m.dtype.name()));
        o.insert("dims".into(), json!(m.dims));
        o.insert("strides".into(), json!(m.strides));
        match &m.mode {
            MapMode::Tiled => {
                o.insert("box".into(), json!(m.box_dims));
            }
            MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => {
                o.insert("mode".into(), json!("im2col"));
                o.insert("lower_corner".into(), json!(lower_corner));
                o.insert("upper_corner".into(), json!(upper_corner));
                o.insert("channels_per_pixel".into(), json!(channels_per_pixel));
                o.insert("pixels_per_column".into(), json!(pixels_per_column));
            }
        }
        o.insert("element_strides".into(), json!(m.element_strides));
        o.insert("interleave".into(), json!(m.interleave.name()));
        o.insert("swizzle".into(), json!(m.swizzle.name()));
        o.insert("l2_promotion".into(), json!(m.l2_promotion.name()));
        o.insert("oob_fill".into(), json!(m.oob_fill.name()));
        maps.insert(t.name.clone(), Value::Object(o));
    }
    let regs: Map<String, Value> = src
        .regs
        .iter()
        .map(|(k, r)| {
            // An untyped value keeps the width it was written with (it may decide its type).
            let digits = r.written_bits.map_or(1, |b| b.div_ceil(4) as usize);
            let v = json!(format!("0x{:0digits$x}", r.value));
            (k.clone(), r.class.map_or(v.clone(), |c| json!({ c.ptx_type().trim_start_matches('.'): v })))
        })
        .collect();
    // The target's name alone where it declares its default PTX version.
    let target = match oracle::isa::Target::parse(&src.target.name()) {
        Ok(t) if t == src.target => src.target.name(),
        _ => format!("{}@{}", src.target.name(), src.target.ptx),
    };
    let mut line = Map::new();
    line.insert("target".into(), json!(target));
    line.insert("program".into(), json!(src.statements));
    line.insert("threads".into(), json!(src.threads));
    if src.cluster > 1 {
        line.insert("cluster".into(), json!(src.cluster));
    }
    if !regs.is_empty() {
        line.insert("regs".into(), Value::Object(regs));
    }
    line.insert("buffers".into(), Value::Object(buffers));
    if !maps.is_empty() {
        line.insert("tensor_maps".into(), Value::Object(maps));
    }
    line.insert("read".into(), json!(src.read));
    Value::Object(line)
}

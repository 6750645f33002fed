#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dancecard_fuzz::cross(data));

package capture

import (
	"bytes"
	"encoding/binary"
	"image"
	_ "image/jpeg" // DecodeConfig for Chromium's JPEG output
	_ "image/png"  // DecodeConfig for Chromium's PNG output
)

// imageSize reads the pixel dimensions from an encoded image header without
// decoding pixels. WebP is parsed here because the standard library has no
// WebP decoder.
func imageSize(data []byte) (w, h int, err error) {
	if len(data) >= 12 && string(data[0:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return webpSize(data)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, &Error{Kind: KindDecode, Err: err}
	}
	return cfg.Width, cfg.Height, nil
}

func webpSize(data []byte) (int, int, error) {
	bad := func(detail string) (int, int, error) {
		return 0, 0, &Error{Kind: KindDecode, Detail: "webp: " + detail}
	}
	if len(data) < 30 {
		return bad("short header")
	}
	chunk, body := string(data[12:16]), data[20:]
	switch chunk {
	case "VP8 ": // lossy: 3-byte frame tag, start code 9d 01 2a, 14-bit sizes
		if body[3] != 0x9d || body[4] != 0x01 || body[5] != 0x2a {
			return bad("VP8 start code")
		}
		return int(binary.LittleEndian.Uint16(body[6:8]) & 0x3fff), int(binary.LittleEndian.Uint16(body[8:10]) & 0x3fff), nil
	case "VP8L": // lossless: signature 0x2f, then 14-bit width-1 and height-1
		if body[0] != 0x2f {
			return bad("VP8L signature")
		}
		bits := binary.LittleEndian.Uint32(body[1:5])
		return int(bits&0x3fff) + 1, int((bits>>14)&0x3fff) + 1, nil
	case "VP8X": // extended: 24-bit canvas width-1 and height-1 after 4 flag bytes
		u24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
		return u24(body[4:7]) + 1, u24(body[7:10]) + 1, nil
	}
	return bad("unknown chunk " + chunk)
}

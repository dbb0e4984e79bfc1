/* fw_path_check: which wire paths are accepted, and the reason for the others. */
#include "cmd_internal.h"
#include "fixture.h"

static const struct {
	const char *path;
	uint32_t len;      /* 0: strlen */
	uint32_t reason;
} cases[] = {
	{ "/", 0, SS_R_OK },
	{ "/a", 0, SS_R_OK },
	{ "/a/b/c", 0, SS_R_OK },
	{ "/a.b/..c/...", 0, SS_R_OK },
	{ "/\x7e", 0, SS_R_OK },
	{ "/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80", 0, SS_R_OK },   /* é, €, an emoji */
	{ "", 0, SS_R_BAD_PATH },
	{ "a/b", 0, SS_R_BAD_PATH },
	{ "//", 0, SS_R_BAD_PATH },
	{ "/a//b", 0, SS_R_BAD_PATH },
	{ "/a/", 0, SS_R_BAD_PATH },
	{ "/.", 0, SS_R_BAD_PATH },
	{ "/a/..", 0, SS_R_BAD_PATH },
	{ "/a/./b", 0, SS_R_BAD_PATH },
	{ "/a\0b", 4, SS_R_BAD_PATH },
	{ "/\x7fsmartssd-fw", 0, SS_R_BAD_PATH },
	{ "/\x7fx/y", 0, SS_R_BAD_PATH },
	/* control characters: C0, DEL and C1 (U+0080-U+009F) */
	{ "/a\nb", 0, SS_R_BAD_PATH },
	{ "/tab\there", 0, SS_R_BAD_PATH },
	{ "/x/\x01", 0, SS_R_BAD_PATH },
	{ "/\x1b[31mred", 0, SS_R_BAD_PATH },
	{ "/dir/\x7f" "del-below-root", 0, SS_R_BAD_PATH },
	{ "/c1\xc2\x9b", 0, SS_R_BAD_PATH },
	/* bidirectional controls (Bidi_Control), each, and their neighbours, which are fine */
	{ "/alm\xd8\x9c", 0, SS_R_BAD_PATH },           /* U+061C */
	{ "/\xd8\x9b\xd8\x9d", 0, SS_R_OK },          /* U+061B, U+061D */
	{ "/lrm\xe2\x80\x8e", 0, SS_R_BAD_PATH },      /* U+200E */
	{ "/rlm\xe2\x80\x8f", 0, SS_R_BAD_PATH },      /* U+200F */
	{ "/\xe2\x80\x8d\xe2\x80\x90", 0, SS_R_OK },  /* U+200D (ZWJ), U+2010 */
	{ "/lre\xe2\x80\xaa", 0, SS_R_BAD_PATH },      /* U+202A */
	{ "/rle\xe2\x80\xab", 0, SS_R_BAD_PATH },      /* U+202B */
	{ "/pdf\xe2\x80\xac", 0, SS_R_BAD_PATH },      /* U+202C */
	{ "/lro\xe2\x80\xad", 0, SS_R_BAD_PATH },      /* U+202D */
	{ "/evil\xe2\x80\xaetxt.exe", 0, SS_R_BAD_PATH },  /* U+202E */
	{ "/\xe2\x80\xa9\xe2\x80\xaf", 0, SS_R_OK },  /* U+2029, U+202F */
	{ "/lri\xe2\x81\xa6", 0, SS_R_BAD_PATH },      /* U+2066 */
	{ "/rli\xe2\x81\xa7", 0, SS_R_BAD_PATH },      /* U+2067 */
	{ "/fsi\xe2\x81\xa8", 0, SS_R_BAD_PATH },      /* U+2068 */
	{ "/d/pdi\xe2\x81\xa9/x", 0, SS_R_BAD_PATH },  /* U+2069 */
	{ "/\xe2\x81\xa5\xe2\x81\xaa", 0, SS_R_OK },  /* U+2065, U+206A */
	/* not well-formed UTF-8 */
	{ "/\xff", 0, SS_R_BAD_PATH },
	{ "/\xc3", 0, SS_R_BAD_PATH },                 /* truncated */
	{ "/\xc3/x", 0, SS_R_BAD_PATH },               /* a '/' is no continuation byte */
	{ "/\xc0\xaf", 0, SS_R_BAD_PATH },            /* overlong '/' */
	{ "/\xe0\x80\xaf", 0, SS_R_BAD_PATH },       /* overlong, 3 bytes */
	{ "/\xed\xa0\x80", 0, SS_R_BAD_PATH },       /* a surrogate */
	{ "/\xf4\x90\x80\x80", 0, SS_R_BAD_PATH },  /* past U+10FFFF */
	{ "/\x80", 0, SS_R_BAD_PATH },                 /* a lone continuation byte */
};

int main(void)
{
	static char longname[300], longpath[FW_PATH_MAX + 10];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t len = cases[i].len ? cases[i].len : (uint32_t)strlen(cases[i].path);

		if (fw_path_check((const uint8_t *)cases[i].path, len) != cases[i].reason) {
			fprintf(stderr, "case %zu (%s)\n", i, cases[i].path);
		}
		CHECK_EQ(fw_path_check((const uint8_t *)cases[i].path, len), cases[i].reason);
	}
	/* a name of 255 bytes is fine, 256 is too long */
	longname[0] = '/';
	memset(longname + 1, 'n', 256);
	CHECK_EQ(fw_path_check((const uint8_t *)longname, 256), SS_R_OK);
	CHECK_EQ(fw_path_check((const uint8_t *)longname, 257), SS_R_NAME_TOO_LONG);
	/* whole paths up to FW_PATH_MAX bytes */
	for (uint32_t i = 0; i < sizeof(longpath); i++) {
		longpath[i] = (i % 100 == 0) ? '/' : 'p';
	}
	CHECK_EQ(fw_path_check((const uint8_t *)longpath, 4000), SS_R_OK);
	CHECK_EQ(fw_path_check((const uint8_t *)longpath, FW_PATH_MAX + 1), SS_R_NAME_TOO_LONG);
	return fx_failures ? 1 : 0;
}

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

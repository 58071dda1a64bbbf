/* symbols.c — finds a function's name from the dynamic linker and the module's ELF symbol table. */
#include "os/linux/symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads `size` bytes at `off` of fd into a new buffer; NULL on failure. */
static void *read_at(int fd, uint64_t off, uint64_t size)
{
    if (size == 0 || size > (1ull << 30))
        return NULL;
    char *p = malloc(size);
    if (!p)
        return NULL;
    if (pread(fd, p, size, (off_t)off) != (ssize_t)size) {
        free(p);
        return NULL;
    }
    return p;
}

/* Looks `vaddr` (a link-time address) up in the symbol table of type
 * `type` (SHT_SYMTAB or SHT_DYNSYM) of an ELF64 file. */
static bool elf_lookup(int fd, const Elf64_Ehdr *eh, const Elf64_Shdr *sh, uint32_t type,
                       uint64_t vaddr, char *buf, size_t size)
{
    bool found = false;
    for (unsigned s = 0; s < eh->e_shnum && !found; s++) {
        if (sh[s].sh_type != type || sh[s].sh_link >= eh->e_shnum ||
            sh[s].sh_entsize != sizeof(Elf64_Sym))
            continue;
        const Elf64_Shdr *strsec = &sh[sh[s].sh_link];
        Elf64_Sym *syms = read_at(fd, sh[s].sh_offset, sh[s].sh_size);
        char *strs = read_at(fd, strsec->sh_offset, strsec->sh_size);
        if (syms && strs) {
            size_t n = sh[s].sh_size / sizeof *syms;
            for (size_t i = 0; i < n; i++) {
                const Elf64_Sym *y = &syms[i];
                if (ELF64_ST_TYPE(y->st_info) != STT_FUNC || y->st_name >= strsec->sh_size)
                    continue;
                if (vaddr >= y->st_value && vaddr < y->st_value + (y->st_size ? y->st_size : 1)) {
                    snprintf(buf, size, "%s", strs + y->st_name);
                    found = true;
                    break;
                }
            }
        }
        free(syms);
        free(strs);
    }
    return found;
}

/* The name of link-time address vaddr in the ELF file at path. */
static bool elf_symbol(const char *path, uint64_t vaddr, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool found = false;
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
        memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
        eh.e_shentsize == sizeof(Elf64_Shdr)) {
        Elf64_Shdr *sh = read_at(fd, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof *sh);
        if (sh)
            found = elf_lookup(fd, &eh, sh, SHT_SYMTAB, vaddr, buf, size) ||
                    elf_lookup(fd, &eh, sh, SHT_DYNSYM, vaddr, buf, size);
        free(sh);
    }
    close(fd);
    return found;
}

bool os_symbol_name(const void *addr, char *buf, size_t size, char *module, size_t module_size,
                    unsigned long *offset)
{
    Dl_info info;
    struct link_map *lm = NULL;
    buf[0] = '\0';
    if (module_size)
        module[0] = '\0';
    *offset = 0;
    if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
        return false;
    /* The main program's link map has an empty name. */
    const char *path = info.dli_fname && info.dli_fname[0] && lm->l_name[0] ? info.dli_fname
                                                                           : "/proc/self/exe";
    char exe[4096];
    if (strcmp(path, "/proc/self/exe") == 0) {
        ssize_t len = readlink(path, exe, sizeof exe - 1);
        if (len > 0) {
            exe[len] = '\0';
            path = exe;
        }
    }
    if (module_size)
        snprintf(module, module_size, "%s", path);
    *offset = (unsigned long)((uintptr_t)addr - (uintptr_t)lm->l_addr);
    if (info.dli_sname && info.dli_saddr == addr) {
        snprintf(buf, size, "%s", info.dli_sname);
        return true;
    }
    return elf_symbol(path, *offset, buf, size);
}

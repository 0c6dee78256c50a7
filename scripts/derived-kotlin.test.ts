import { describe, expect, it } from 'vitest'
import { deriveSelectors, functionBody, literal } from './derived-kotlin'
import { usableSelector } from './derived-sites'

// Small sources written for these tests, in the shapes the extensions' Kotlin takes (no extension's code).
const source = (chapterListParse: string, extra = '') => `
class Example : HttpSource() {
    override fun mangaDetailsParse(response: Response): SManga {
        val document = response.asJsoup()
        return SManga.create().apply {
            title = document.selectFirst("h1.series-name")!!.text()
        }
    }

${chapterListParse}
${extra}
}
`

describe('the Kotlin reader of scripts/derived-sites.ts', () => {
  it('a lambda over the rows, name and link inside the row', () => {
    const d = deriveSelectors(
      source(`    override fun chapterListParse(response: Response): List<SChapter> {
        val document = response.asJsoup()
        return document.select("ul.chapters > li").map { row ->
            SChapter.create().apply {
                val link = row.selectFirst("a.read")!!
                setUrlWithoutDomain(link.absUrl("href"))
                name = link.selectFirst("span.label")!!.text()
                val when = row.selectFirst(".date")?.text()
                date_upload = parseDate(when)
            }
        }
    }`),
    )
    expect(d).toEqual({
      ok: true,
      shape: 'lambda, name inside, link inside',
      selectors: { chapter: 'ul.chapters > li', title: 'h1.series-name', number: 'text', name: 'a.read span.label', link: 'a.read' },
    })
  })

  it('the row is the link and the name; `it`, a reversed list, a constant selector', () => {
    const d = deriveSelectors(
      source(
        `    override fun chapterListParse(response: Response): List<SChapter> = response.asJsoup()
        .select(chapterSelector)
        .reversed()
        .map {
            SChapter.create().apply {
                name = it.text().trim()
                url = it.attr("href")
            }
        }`,
        '    private val chapterSelector = "#list a.chapter"\n',
      ),
    )
    expect(d).toMatchObject({
      ok: true,
      shape: 'lambda, name the row, link the row',
      selectors: { chapter: '#list a.chapter', number: 'text' },
    })
  })

  it('a function of its own makes each chapter; a number in an attribute of the row', () => {
    const d = deriveSelectors(
      source(
        `    override fun chapterListParse(response: Response): List<SChapter> {
        val document = response.asJsoup()
        return document.select("div.ep").map(::chapterOf)
    }`,
        `    private fun chapterOf(element: Element): SChapter = SChapter.create().apply {
        name = element.selectFirst(".t")?.text() ?: "Episode"
        setUrlWithoutDomain(element.attr("abs:href"))
        chapter_number = element.attr("data-no").toFloat()
    }`,
      ),
    )
    expect(d).toMatchObject({
      ok: true,
      shape: 'function, name inside, link the row',
      selectors: { chapter: 'div.ep', number: 'attr:data-no', name: '.t' },
    })
  })

  it('refuses what is not the simple shape, with the reason', () => {
    const why = (code: string, extra = '') => {
      const d = deriveSelectors(source(code, extra))
      return d.ok ? 'accepted' : d.why
    }
    const simple = `    override fun chapterListParse(response: Response): List<SChapter> {
        val document = response.asJsoup()
        return document.select("li").map { e -> SChapter.create().apply { name = e.text(); setUrlWithoutDomain(e.attr("href")) } }
    }`
    expect(why(simple)).toBe('accepted')
    expect(why(simple, '    override fun chapterListRequest(manga: SManga) = GET("$apiUrl/chapters/${manga.url}", headers)')).toBe(
      'the list comes by a request of its own',
    )
    expect(why(simple.replace('"li"', '"li.$kind"'))).toBe('the list selector is built at run time')
    expect(why(simple.replace('name = e.text()', 'name = e.text().substringAfter("-")'))).toMatch(/^a name made, not read/)
    expect(why(simple.replace('setUrlWithoutDomain(e.attr("href"))', 'url = "/read/" + e.attr("data-id")'))).toMatch(
      /^a URL made, not read/,
    )
    expect(why(simple.replace('name = e.text();', 'if (e.hasClass("x")) name = e.text();'))).toMatch(/^a statement with logic/)
    expect(
      why(simple.replace('val document = response.asJsoup()', 'val document = response.asJsoup()\n        loadMore(document)')),
    ).toMatch(/^more than the list/)
    expect(why('    override fun chapterListParse(response: Response) = response.parseAs<Dto>().chapters.map { it.toSChapter() }')).toBe(
      'a JSON answer',
    )
    expect(why('')).toBe('no chapterListParse')
  })

  // A KeiSource (the newer API): one update fetches the Series page and hands it to the chapter parse.
  const keiSource = (update: string, extra = '') => `
class Example : KeiSource() {
    override suspend fun fetchMangaUpdate(
        manga: SManga,
        chapters: List<SChapter>,
        fetchDetails: Boolean,
        fetchChapters: Boolean,
    ): SMangaUpdate {
${update}
    }

    private fun parseMangaDetails(document: Document): SManga = SManga.create().apply {
        title = document.selectFirst("h1.comic-name")!!.text()
    }

    private fun parseChapterList(document: Document): List<SChapter> = document.select("div.chapters > div.item").mapNotNull { row ->
        val link = row.selectFirst("a.go") ?: return@mapNotNull null
        SChapter.create().apply {
            setUrlWithoutDomain(link.absUrl("href"))
            name = link.text()
            date_upload = parseDate(row.selectFirst(".time")?.text())
        }
    }
${extra}
}
`
  const plainUpdate = `        val document = client.get(getMangaUrl(manga)).asJsoup()
        return SMangaUpdate(parseMangaDetails(document), if (fetchChapters) parseChapterList(document) else chapters)`

  it('an update that reads the Series page: the parse it hands the page to, a row without its link skipped', () => {
    expect(deriveSelectors(keiSource(plainUpdate))).toEqual({
      ok: true,
      shape: 'update lambda, name inside, link inside',
      selectors: { chapter: 'div.chapters > div.item', title: 'h1.comic-name', number: 'text', name: 'a.go', link: 'a.go' },
    })
  })

  it('an update: the page by a response named first, through a use block that only throws, or by a function of its own', () => {
    const ok = (code: string, extra = '') => deriveSelectors(keiSource(code, extra)).ok
    expect(
      ok(`        val response = client.get("\${baseUrl}\${manga.url}")
        val document = response.asJsoup()
        return SMangaUpdate(manga, parseChapterList(document))`),
    ).toBe(true)
    expect(
      ok(`        val path = manga.url
        val doc = client.get("$baseUrl$path", ensureSuccess = false).use { response ->
            if (!response.isSuccessful) {
                throw HttpException(response.code)
            }
            response.asJsoup()
        }
        return SMangaUpdate(manga, parseChapterList(doc))`),
    ).toBe(true)
    expect(
      ok(
        `        return SMangaUpdate(manga, if (fetchChapters) loadChapters(manga) else chapters)`,
        `    private suspend fun loadChapters(manga: SManga): List<SChapter> = parseChapterList(client.get(getMangaUrl(manga)).asJsoup())`,
      ),
    ).toBe(true)
  })

  it('refuses an update whose chapters come otherwise, and a row skipped for an element it does not read', () => {
    const why = (code: string, extra = '') => {
      const d = deriveSelectors(keiSource(code, extra))
      return d.ok ? 'accepted' : d.why
    }
    expect(why(plainUpdate.replace('getMangaUrl(manga)', '"$baseUrl/ajax/chapters/${manga.url}"'))).toBe(
      'the update reads no Series page for its chapters',
    )
    // The page a reader opens is another address than the one the update builds: not the Series page.
    expect(
      why(
        plainUpdate.replace('getMangaUrl(manga)', 'baseUrl + manga.url'),
        '    override fun getMangaUrl(manga: SManga) = "$baseUrl/series/${manga.url}"',
      ),
    ).toBe('the update reads no Series page for its chapters')
    expect(why(plainUpdate.replace(/document\b/g, 'page'))).toBe('accepted')
    expect(why('        return SMangaUpdate(manga, api.chapters(manga.url))')).toBe('the update reads no Series page')
    const guarded = keiSource(plainUpdate).replace(
      'val link = row.selectFirst("a.go") ?: return@mapNotNull null',
      'val link = row.selectFirst("a.go")!!\n        val lock = row.selectFirst(".free") ?: return@mapNotNull null',
    )
    expect(deriveSelectors(guarded)).toEqual({ ok: false, why: 'a row skipped for an element not read' })
  })

  it('a ParsedHttpSource: the list selector a literal, each chapter made by chapterFromElement', () => {
    const parsed = (fromElement: string) =>
      deriveSelectors(`
class Example : ParsedHttpSource() {
    override fun chapterListSelector() = "ul.episodes li"
    override fun chapterFromElement(element: Element): SChapter = ${fromElement}
}`)
    expect(
      parsed(`SChapter.create().apply {
        name = element.selectFirst("span.title")!!.text()
        setUrlWithoutDomain(element.selectFirst("a")!!.attr("href"))
    }`),
    ).toEqual({
      ok: true,
      shape: 'parsed, name inside, link inside',
      selectors: { chapter: 'ul.episodes li', number: 'text', name: 'span.title', link: 'a' },
    })
    expect(parsed(`SChapter.create().apply { name = element.text(); url = "/e/" + element.attr("data-id") }`)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^a URL made, not read/),
    })
    expect(parsed(`chapterOf(element).also { log(it) }`)).toEqual({ ok: false, why: 'chapterFromElement does more than one apply block' })
  })

  it('a list mapped with mapNotNull is read as one (not as map followed by something else)', () => {
    const d = deriveSelectors(
      source(`    override fun chapterListParse(response: Response): List<SChapter> =
        response.asJsoup().select("li.ch").mapNotNull { SChapter.create().apply { name = it.text(); url = it.attr("href") } }`),
    )
    expect(d).toMatchObject({ ok: true, shape: 'lambda, name the row, link the row', selectors: { chapter: 'li.ch' } })
  })

  it('a sort by number or a reversal is no logic; a name with a digitless literal taken off an end keeps its number', () => {
    const d = deriveSelectors(
      source(`    override fun chapterListParse(response: Response): List<SChapter> {
        return response.asJsoup().select("li.ch").map { row ->
            SChapter.create().apply {
                name = row.selectFirst("a")!!.text().removePrefix("#").trimStart()
                setUrlWithoutDomain(row.selectFirst("a")!!.absUrl("href"))
                row.selectFirst(".date")?.text()?.also { date_upload = parseDate(it) }
            }
        }.sortedByDescending { it.chapter_number }.asReversed()
    }`),
    )
    expect(d).toMatchObject({ ok: true, selectors: { chapter: 'li.ch', name: 'a', link: 'a' } })
    const digits = deriveSelectors(
      source(`    override fun chapterListParse(response: Response) = response.asJsoup().select("li").map {
        SChapter.create().apply { name = it.text().removePrefix("1. "); url = it.attr("href") }
    }`),
    )
    expect(digits).toMatchObject({ ok: false, why: expect.stringMatching(/^a name made, not read/) })
  })

  it("a row's href or text named first, the row skipped when it is empty, is read where it is named", () => {
    const rows = (first: string, fields: string) =>
      deriveSelectors(
        source(`    override fun chapterListParse(response: Response): List<SChapter> {
        val document = response.asJsoup()
        return document.select(".list article a").mapNotNull { element ->
            ${first}
            SChapter.create().apply {
                ${fields}
            }
        }
    }`),
      )
    expect(
      rows(
        'val chapterUrl = element.absUrl("href").takeIf { it.isNotEmpty() } ?: return@mapNotNull null',
        'setUrlWithoutDomain(chapterUrl)\n                name = element.select(".storyTitle").text()',
      ),
    ).toMatchObject({ ok: true, selectors: { chapter: '.list article a', name: '.storyTitle' } })
    expect(
      rows(
        'val title = element.selectFirst("h4")?.text()?.takeIf(String::isNotEmpty) ?: return@mapNotNull null',
        'url = element.attr("href")\n                name = title',
      ),
    ).toMatchObject({ ok: true, selectors: { name: 'h4' } })
    // A value of no element read (a number found by a pattern) guarding the row: logic.
    expect(
      rows(
        'val n = Regex("c-(\\\\d+)").find(element.attr("href"))?.value ?: return@mapNotNull null',
        'url = element.attr("href")\n                name = element.text()',
      ),
    ).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^a row skipped by logic/),
    })
  })

  it('an element read in a scope of its own (let, run, with, also) is read as a named element', () => {
    const scoped = (fields: string) =>
      deriveSelectors(
        source(`    override fun chapterListParse(response: Response): List<SChapter> {
        return response.asJsoup().select("ul.list li").map { element ->
            SChapter.create().apply {
                ${fields}
            }
        }
    }`),
      )
    const expected = { ok: true, selectors: { chapter: 'ul.list li', name: 'a.go', link: 'a.go' } }
    expect(
      scoped(
        'element.selectFirst("a.go")!!.let { a ->\n                    name = a.text()\n                    url = a.attr("href")\n                }',
      ),
    ).toMatchObject(expected)
    expect(
      scoped(
        'with(element.selectFirst("a.go")!!) {\n                    setUrlWithoutDomain(attr("abs:href"))\n                    name = text()\n                }',
      ),
    ).toMatchObject(expected)
    expect(
      scoped(
        'element.selectFirst("a.go")?.run {\n                    setUrlWithoutDomain(absUrl("href"))\n                    name = text()\n                }',
      ),
    ).toMatchObject(expected)
    expect(
      scoped(
        'name = element.selectFirst("a.go")!!.text()\n                element.selectFirst("a.go")?.absUrl("href")?.also { setUrlWithoutDomain(it) }',
      ),
    ).toMatchObject(expected)
    // What the scope makes of the element is still read as anywhere else: a URL built is refused.
    expect(
      scoped(
        'element.selectFirst("a.go")!!.let {\n                    name = it.text()\n                    url = "/r/" + it.attr("data-id")\n                }',
      ),
    ).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^a URL made, not read/),
    })
  })

  it('reads literals, and bodies of both forms', () => {
    expect(literal('"a[href*=\\"x\\"]"')).toBe('a[href*="x"]')
    expect(literal('"a.$b"')).toBeNull()
    expect(functionBody('fun f(x: Int): String = "a"\nfun g() {}', 'f')?.trim()).toBe('"a"')
    expect(functionBody('fun f() { return { 1 } }', 'f')).toBe(' return { 1 } ')
  })

  it('keeps only selectors cheerio runs as jsoup means them', () => {
    expect(usableSelector('ul.list > li:not(.ad):has(a)')).toBe(true)
    expect(usableSelector('li:eq(0)')).toBe(false)
    expect(usableSelector('a[class~=ch-\\d+]')).toBe(false)
    expect(usableSelector('li:matchesOwn(^Ch)')).toBe(false)
    expect(usableSelector('li:::')).toBe(false)
  })
})

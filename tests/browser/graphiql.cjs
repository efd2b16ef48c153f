// GraphiQL at /graphql: open the schema's docs, then run a remember and a search through the
// page's editor and Run button, and read each response back from the page.
"use strict";

const { run } = require("./chromium.cjs");

const EDITOR = ".graphiql-query-editor .CodeMirror";
const RESPONSE = ".graphiql-response .CodeMirror";

async function execute(page, query) {
  await page.click(EDITOR);
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  // insertText types the text as one input event: CodeMirror does not auto-close the brackets.
  await page.keyboard.insertText(query);
  // GraphiQL reads the operations of the text after a debounce, then calls onEditQuery, which
  // puts the text in the URL: until then the Run button would still see the example's two
  // operations and open a menu to pick one.
  await page.waitForFunction((q) => new URLSearchParams(location.search).get("q") === q, query);
  const before = await page.$eval(RESPONSE, (el) => el.CodeMirror.getValue());
  await page.click(".graphiql-execute-button");
  await page.waitForFunction(
    ([selector, old]) => {
      const text = document.querySelector(selector).CodeMirror.getValue();
      return text !== old && text.includes('"data"');
    },
    [RESPONSE, before],
    { timeout: 60000 },
  );
  const text = await page.$eval(RESPONSE, (el) => el.CodeMirror.getValue());
  return { json: JSON.parse(text), shown: await page.innerText(".graphiql-response") };
}

async function docs(page, shot) {
  const toggle = (verb) => page.getByRole("button", { name: `${verb} Documentation Explorer` });
  await toggle("Show").click();
  await page.waitForSelector(".graphiql-doc-explorer-content");
  // The explorer opens before the introspection answer is rendered (on a loaded machine it
  // showed only its "Docs" heading): wait for the schema's root types, or time out and report
  // what it shows.
  await page
    .waitForFunction(
      () => (document.querySelector(".graphiql-doc-explorer")?.innerText || "").includes("query:"),
      null,
      { timeout: 60000 },
    )
    .catch(() => {});
  const text = await page.innerText(".graphiql-doc-explorer");
  await shot("graphiql-docs.png");
  await toggle("Hide").click();
  return text;
}

run(async (page, { url, namespace, content, question }, shot) => {
  const response = await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector(EDITOR, { timeout: 30000 });
  const loaded = {
    status: response.status(),
    title: await page.title(),
    loadingLeft: (await page.content()).includes("Loading GraphiQL..."),
    runButton: await page.isVisible(".graphiql-execute-button"),
  };
  const schemaDocs = await docs(page, shot);
  const remember = await execute(
    page,
    `mutation {\n  remember(namespace: "${namespace}", memory: {content: "${content}", ` +
      `tags: ["browser"]}) {\n    created\n    memory { content tags }\n  }\n}`,
  );
  const search = await execute(
    page,
    `query {\n  search(namespace: "${namespace}", query: "${question}", k: 1) {\n` +
      `    score\n    memory { content }\n  }\n}`,
  );
  return { loaded, docs: schemaDocs, remember, search };
});

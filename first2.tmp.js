const http = require("http");
const t0 = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
const srv = http.createServer((req, res) => { res.setHeader("content-type","application/json"); res.end('{"success":true,"new_contract":5}'); });
srv.listen(0, "127.0.0.1", async () => {
  const port = srv.address().port;
  let t = ms();
  if (process.argv[2] === "raw") {
  await new Promise((r) => http.request(`http://127.0.0.1:${port}/x`, { method: "PUT", headers: {"content-type": "application/json"} }, (res) => { let b=""; res.on("data", d=>b+=d); res.on("end", ()=>{JSON.parse(b); r()}); }).end("{}"));
  console.log("raw http first", (ms() - t).toFixed(1)); t = ms();
  }
  const axios = require("axios");
  const inst = axios.create({ baseURL: `http://127.0.0.1:${port}`, timeout: 60000 });
  t = ms();
  await inst.put("/api/v0/asks/1/", { a: 1 });
  console.log("first req", (ms() - t).toFixed(1)); t = ms();
  for (let i = 0; i < 200; i++) await inst.put("/api/v0/asks/1/", { a: 1 });
  console.log("200 req", (ms() - t).toFixed(1)); t = ms();
  for (let i = 0; i < 200; i++) await new Promise((r) => http.request(`http://127.0.0.1:${port}/x`, { method: "PUT" }, (res) => { res.resume(); res.on("end", r); }).end("{}"));
  console.log("200 raw", (ms() - t).toFixed(1)); t = ms();
  srv.close();
});

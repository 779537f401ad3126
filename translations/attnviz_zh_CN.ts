<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LoadError</name>
    <message>
        <source>The file “%1” does not exist. It may have been moved, renamed or deleted.</source>
        <translation>文件“%1”不存在。它可能已被移动、重命名或删除。</translation>
    </message>
    <message>
        <source>“%1” is a folder, not a model file. Choose a .safetensors file inside it.</source>
        <translation>“%1”是一个文件夹，不是模型文件。请选择其中的 .safetensors 文件。</translation>
    </message>
    <message>
        <source>You are not allowed to read “%1”. Check the file&apos;s permissions.</source>
        <translation>你没有读取“%1”的权限。请检查文件的权限。</translation>
    </message>
    <message>
        <source>“%1” is not an attnviz model. attnviz opens .safetensors files written by attnviz-cli train or by the PyTorch bridge (python/attnviz_torch.py).</source>
        <translation>“%1”不是 attnviz 模型。attnviz 打开由 attnviz-cli train 或 PyTorch 桥接（python/attnviz_torch.py）写出的 .safetensors 文件。</translation>
    </message>
    <message>
        <source>“%1” is incomplete: the file ends before all of its data. A download or copy may not have finished; fetch or copy it again.</source>
        <translation>“%1”不完整：文件在全部数据之前就结束了。下载或复制可能没有完成；请重新获取或复制。</translation>
    </message>
    <message>
        <source>“%1” does not fit together: its weights do not have the sizes its own settings call for. It may have been edited or written by another program; save the model again.</source>
        <translation>“%1”前后不一致：其权重的大小与它自己的设置不符。它可能被编辑过，或由其他程序写出；请重新保存模型。</translation>
    </message>
    <message>
        <source>“%1” cannot be used as a model: something in it is wrong (see the details).</source>
        <translation>“%1”无法用作模型：其中有错误（见详细信息）。</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::About</name>
    <message>
        <source>&lt;p&gt;&lt;b&gt;attnviz&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;attnviz shows where a sequence-to-sequence model looks while it translates: the attention weights of each output token over the source tokens.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;attnviz&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;attnviz 展示序列到序列（seq2seq）模型在翻译时“看”向哪里：每个输出词元对各个源词元的注意力权重。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Built with &lt;a href=&quot;https://www.qt.io&quot;&gt;Qt&lt;/a&gt; %1, &lt;a href=&quot;https://eigen.tuxfamily.org&quot;&gt;Eigen&lt;/a&gt; %2 and &lt;a href=&quot;https://www.qcustomplot.com&quot;&gt;QCustomPlot&lt;/a&gt; %3.&lt;/p&gt;</source>
        <translation>&lt;p&gt;基于 &lt;a href=&quot;https://www.qt.io&quot;&gt;Qt&lt;/a&gt; %1、&lt;a href=&quot;https://eigen.tuxfamily.org&quot;&gt;Eigen&lt;/a&gt; %2 和 &lt;a href=&quot;https://www.qcustomplot.com&quot;&gt;QCustomPlot&lt;/a&gt; %3 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The English–Chinese sample models are trained on sentence pairs from &lt;a href=&quot;https://tatoeba.org&quot;&gt;Tatoeba&lt;/a&gt; (tatoeba.org), © their contributors, licensed under &lt;a href=&quot;https://creativecommons.org/licenses/by/2.0/fr/&quot;&gt;CC-BY 2.0 FR&lt;/a&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;英汉示例模型使用 &lt;a href=&quot;https://tatoeba.org&quot;&gt;Tatoeba&lt;/a&gt;（tatoeba.org）的句对训练，句子版权归其贡献者所有，以 &lt;a href=&quot;https://creativecommons.org/licenses/by/2.0/fr/&quot;&gt;CC-BY 2.0 FR&lt;/a&gt; 许可发布。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AttentionView</name>
    <message>
        <source>encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Attention (last layer, mean of the heads)</source>
        <translation>注意力（最后一层，各头的平均）</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3</source>
        <translation>%1，第 %2 层，第 %3 个头</translation>
    </message>
    <message>
        <source>%1, layer %2, mean of %3 heads</source>
        <translation>%1，第 %2 层，%3 个头的平均</translation>
    </message>
    <message>
        <source>rows: source tokens (queries) · columns: source tokens (keys)</source>
        <translation>行：源词元（查询）· 列：源词元（键）</translation>
    </message>
    <message>
        <source>rows: output tokens · columns: decoder inputs (&lt;sos&gt; then the output so far); none above the diagonal</source>
        <translation>行：输出词元 · 列：解码器输入（&lt;sos&gt;，然后是目前为止的输出）；对角线以上为空</translation>
    </message>
    <message>
        <source>rows: output tokens · columns: source tokens</source>
        <translation>行：输出词元 · 列：源词元</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::BeamTreeCanvas</name>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>The start of every hypothesis (&lt;sos&gt;)</source>
        <translation>所有假设的起点（&lt;sos&gt;）</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>kept, finished</source>
        <translation>保留，已完成</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>剪枝</translation>
    </message>
    <message>
        <source>, on the best hypothesis</source>
        <translation>，在最优假设上</translation>
    </message>
    <message>
        <source>“%1” at step %2 (%3)
log p = %4, total log-probability %5</source>
        <translation>第 %2 步的“%1”（%3）
log p = %4，总对数概率 %5</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::BeamTreeView</name>
    <message>
        <source>Beam &amp;width:</source>
        <translation>束宽(&amp;W)：</translation>
    </message>
    <message>
        <source>How many hypotheses the search keeps at each step (1: the greedy decode). Each kept hypothesis proposes as many next tokens; the best of them are kept, the others pruned.</source>
        <translation>搜索在每一步保留的假设个数（1：贪心解码）。每个保留的假设提出同样多个下一个词元；其中最好的被保留，其余被剪枝。</translation>
    </message>
    <message>
        <source>Show &amp;pruned</source>
        <translation>显示剪枝(&amp;P)</translation>
    </message>
    <message>
        <source>Draw the hypotheses the search dropped (dashed) as well as the kept ones</source>
        <translation>除保留的假设外，也画出搜索丢弃的假设（虚线）</translation>
    </message>
    <message>
        <source>&amp;Finished hypotheses, best first:</source>
        <translation>已完成的假设，最优在前(&amp;F)：</translation>
    </message>
    <message>
        <source>Click a hypothesis to see its attention in the heatmap; right-click to force a token after it.</source>
        <translation>单击一个假设，在热力图中查看它的注意力；右键单击可在它之后强制一个词元。</translation>
    </message>
    <message>
        <source>Type a sentence: its beam search appears here.</source>
        <translation>输入一个句子：它的束搜索显示在这里。</translation>
    </message>
    <message>
        <source>No beam search: %1</source>
        <translation>无法进行束搜索：%1</translation>
    </message>
    <message>
        <source>This hypothesis ends with &lt;eos&gt;: no token can follow it.</source>
        <translation>这个假设以 &lt;eos&gt; 结束：其后不能再有词元。</translation>
    </message>
    <message>
        <source>&amp;Show this hypothesis</source>
        <translation>显示这个假设(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Force a token here…</source>
        <translation>在此强制一个词元(&amp;F)…</translation>
    </message>
    <message>
        <source>Search &amp;again without forced tokens</source>
        <translation>不带强制词元重新搜索(&amp;A)</translation>
    </message>
    <message>
        <source>the start</source>
        <translation>开头</translation>
    </message>
    <message>
        <source>Force a token</source>
        <translation>强制一个词元</translation>
    </message>
    <message>
        <source>Token at step %1, after %2:</source>
        <translation>第 %1 步的词元，位于 %2 之后：</translation>
    </message>
    <message>
        <source>“%1” is not in the model&apos;s target vocabulary.</source>
        <translation>“%1”不在模型的目标词表中。</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Save the tree as drawn (PNG, SVG, PDF) or its numbers (CSV, JSON)</source>
        <translation>按所绘样子保存这棵树（PNG、SVG、PDF），或保存其数值（CSV、JSON）</translation>
    </message>
    <message>
        <source>E&amp;xport the tree…</source>
        <translation>导出这棵树(&amp;X)…</translation>
    </message>
    <message>
        <source>Export the beam tree</source>
        <translation>导出束搜索树</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV numbers (*.csv);;JSON numbers (*.json)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 数值 (*.csv);;JSON 数值 (*.json)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>The tree was not saved. %1</source>
        <translation>这棵树未能保存。%1</translation>
    </message>
    <message>
        <source>No attention heads for this hypothesis: %1</source>
        <translation>这个假设没有注意力头：%1</translation>
    </message>
    <message>
        <source>%1. %2  %3</source>
        <translation>%1. %2  %3</translation>
    </message>
    <message numerus="yes">
        <source>%1
Total log-probability %2 over %n token(s)</source>
        <translation>
            <numerusform>%1
%n 个词元的总对数概率 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Length penalty:</source>
        <translation>长度惩罚(&amp;L)：</translation>
    </message>
    <message>
        <source>Finished hypotheses rank by total log p divided by their length to this power (Hugging Face&apos;s generate uses 1); 0 ranks by the total, so short hypotheses tend to win</source>
        <translation>已完成的假设按总对数概率除以长度的该次幂排序（Hugging Face 的 generate 用 1）；0：按总和排序，短假设往往胜出</translation>
    </message>
    <message>
        <source>%1 (Σ %2)</source>
        <translation>%1（Σ %2）</translation>
    </message>
    <message>
        <source>
Ranked by the total / L^%1 = %2, L = %3 (the tokens and the decoder start)</source>
        <translation>
按总和 / L^%1 = %2 排序，L = %3（词元数加上解码器起始符）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CellInspector</name>
    <message>
        <source>Click a cell of the heatmap to see how its attention weight was made.</source>
        <translation>点击热力图中的一个单元格，查看它的注意力权重是如何得出的。</translation>
    </message>
    <message>
        <source>This cell cannot be explained: %1</source>
        <translation>无法解释此单元格：%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;A Transformer&apos;s row is the mean of its last layer&apos;s cross-attention heads: there is no single score to take apart.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Transformer 的一行是其最后一层交叉注意力各个头的平均：没有单一的打分可供拆解。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Position %1 is outside this step&apos;s window [%2, %3]: it has no score and weight 0.&lt;/p&gt;</source>
        <translation>&lt;p&gt;位置 %1 在本步的窗口 [%2, %3] 之外：没有打分，权重为 0。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>weight a&lt;sub&gt;tj&lt;/sub&gt;</source>
        <translation>权重 a&lt;sub&gt;tj&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>= softmax %1 × Gaussian %2</source>
        <translation>= softmax %1 × 高斯因子 %2</translation>
    </message>
    <message>
        <source>softmax of the scores</source>
        <translation>打分的 softmax</translation>
    </message>
    <message>
        <source>rank in the row</source>
        <translation>行内排名</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 名，共 %2 个</translation>
    </message>
    <message>
        <source>share of the context</source>
        <translation>上下文占比</translation>
    </message>
    <message>
        <source>‖a&lt;sub&gt;tj&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;‖ / Σ&lt;sub&gt;j&lt;/sub&gt; ‖a&lt;sub&gt;tj&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;‖</source>
        <translation>‖a&lt;sub&gt;tj&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;‖ / Σ&lt;sub&gt;j&lt;/sub&gt; ‖a&lt;sub&gt;tj&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;‖</translation>
    </message>
    <message>
        <source>row entropy</source>
        <translation>行熵</translation>
    </message>
    <message>
        <source>%1 nats</source>
        <translation>%1 奈特</translation>
    </message>
    <message>
        <source>uniform ln S = %1 (%2 %)%3</source>
        <translation>均匀分布 ln S = %1（%2 %）%3</translation>
    </message>
    <message>
        <source>: &lt;b&gt;diffuse&lt;/b&gt;</source>
        <translation>：&lt;b&gt;分散&lt;/b&gt;</translation>
    </message>
    <message>
        <source>s&lt;sub&gt;t&lt;/sub&gt;, the state after this step&apos;s GRU</source>
        <translation>s&lt;sub&gt;t&lt;/sub&gt;，本步 GRU 之后的状态</translation>
    </message>
    <message>
        <source>s&lt;sub&gt;t−1&lt;/sub&gt;, the state before this step</source>
        <translation>s&lt;sub&gt;t−1&lt;/sub&gt;，本步之前的状态</translation>
    </message>
    <message>
        <source>additive: e = v · tanh(W s + U h&lt;sub&gt;j&lt;/sub&gt; + b)</source>
        <translation>加性：e = v · tanh(W s + U h&lt;sub&gt;j&lt;/sub&gt; + b)</translation>
    </message>
    <message>
        <source>W s</source>
        <translation>W s</translation>
    </message>
    <message>
        <source>norm; %1</source>
        <translation>范数；%1</translation>
    </message>
    <message>
        <source>U h&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>U h&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>tanh(W s + U h&lt;sub&gt;j&lt;/sub&gt; + b)</source>
        <translation>tanh(W s + U h&lt;sub&gt;j&lt;/sub&gt; + b)</translation>
    </message>
    <message>
        <source>dot: e = s · h&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>点积：e = s · h&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>s · h&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>s · h&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>scaled dot: e = s · h&lt;sub&gt;j&lt;/sub&gt; / √d, d = %1</source>
        <translation>缩放点积：e = s · h&lt;sub&gt;j&lt;/sub&gt; / √d，d = %1</translation>
    </message>
    <message>
        <source>scale 1/√d</source>
        <translation>缩放 1/√d</translation>
    </message>
    <message>
        <source>general: e = s · (W h&lt;sub&gt;j&lt;/sub&gt;)</source>
        <translation>一般 (general)：e = s · (W h&lt;sub&gt;j&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>W h&lt;sub&gt;j&lt;/sub&gt;</source>
        <translation>W h&lt;sub&gt;j&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>s · (W h&lt;sub&gt;j&lt;/sub&gt;)</source>
        <translation>s · (W h&lt;sub&gt;j&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>score e&lt;sub&gt;tj&lt;/sub&gt;</source>
        <translation>打分 e&lt;sub&gt;tj&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1&lt;br&gt;s = %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1&lt;br&gt;s = %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>local_m: p = min(t, S − 1)</source>
        <translation>local_m：p = min(t, S − 1)</translation>
    </message>
    <message>
        <source>local_p: p = S · sigmoid(v&lt;sub&gt;p&lt;/sub&gt; · tanh(W&lt;sub&gt;p&lt;/sub&gt; s))</source>
        <translation>local_p：p = S · sigmoid(v&lt;sub&gt;p&lt;/sub&gt; · tanh(W&lt;sub&gt;p&lt;/sub&gt; s))</translation>
    </message>
    <message>
        <source>centre p</source>
        <translation>中心 p</translation>
    </message>
    <message>
        <source>window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>p ± D, D = %1</source>
        <translation>p ± D，D = %1</translation>
    </message>
    <message>
        <source>Gaussian factor</source>
        <translation>高斯因子</translation>
    </message>
    <message>
        <source>exp(−(j − p)² / (2 (D/2)²))</source>
        <translation>exp(−(j − p)² / (2 (D/2)²))</translation>
    </message>
    <message>
        <source>R&lt;sub&gt;tj&lt;/sub&gt;</source>
        <translation>R&lt;sub&gt;tj&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>by size |R|</source>
        <translation>按大小 |R|</translation>
    </message>
    <message>
        <source>contrast</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>f = log p(token) − log p(contrast)</source>
        <translation>f = log p(词元) − log p(对比词元)</translation>
    </message>
    <message>
        <source>completeness gap</source>
        <translation>完备性差距</translation>
    </message>
    <message>
        <source>Σ&lt;sub&gt;j&lt;/sub&gt; R&lt;sub&gt;tj&lt;/sub&gt; − (f(x) − f(0)), f(x) − f(0) = %1</source>
        <translation>Σ&lt;sub&gt;j&lt;/sub&gt; R&lt;sub&gt;tj&lt;/sub&gt; − (f(x) − f(0))，f(x) − f(0) = %1</translation>
    </message>
    <message>
        <source>This row was changed by an intervention (a knockout or “attend only here”): its weights are not the softmax of its scores, so there is nothing to take apart here. Interventions ▸ Plain model shows the model&apos;s own.</source>
        <translation>这一行被干预改变了（屏蔽或“只关注这里”）：它的权重不是其打分的 softmax，所以这里没有可拆解的内容。干预 ▸ 原始模型 显示模型自己的结果。</translation>
    </message>
    <message>
        <source>not a word pair: no gold link (&amp;lt;sos&amp;gt; and &amp;lt;eos&amp;gt; are not counted)</source>
        <translation>不是词对：没有金标准链接（&amp;lt;sos&amp;gt; 和 &amp;lt;eos&amp;gt; 不计数）</translation>
    </message>
    <message>
        <source>gold link %1-%2 (words from 0, &amp;lt;sos&amp;gt; not counted)</source>
        <translation>金标准链接 %1-%2（词从 0 数起，不计 &amp;lt;sos&amp;gt;）</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;“%1” ← “%2”&lt;/b&gt;&lt;br&gt;step %3, source position %4 (&amp;lt;sos&amp;gt; = 0)&lt;br&gt;%5&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;“%1” ← “%2”&lt;/b&gt;&lt;br&gt;第 %3 步，源位置 %4（&amp;lt;sos&amp;gt; = 0）&lt;br&gt;%5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Row %1 is not decoded yet at this step (%2 of %3): step forward to see how its weights were made.</source>
        <translation>第 %1 行在这一步（第 %2 步，共 %3 步）还没有解码：向前走几步才能看到它的权重是如何得出的。</translation>
    </message>
    <message>
        <source>The heatmap shows another attention than the decoder&apos;s own (a head, a layer or self-attention): the inspector takes apart the model&apos;s own cross-attention rows only. Choose the default view in the Attention heads dock to inspect a cell.</source>
        <translation>热力图显示的不是解码器自己的注意力（某个头、某一层或自注意力）：检查器只拆解模型自己的交叉注意力行。在“注意力头”面板中选择默认视图，才能检查单元格。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Colormaps</name>
    <message>
        <source>Viridis (perceptually uniform)</source>
        <translation>Viridis（感知均匀）</translation>
    </message>
    <message>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <source>Cividis (colour-blind safe)</source>
        <translation>Cividis（色盲友好）</translation>
    </message>
    <message>
        <source>Bone (black to white)</source>
        <translation>Bone（由黑到白）</translation>
    </message>
    <message>
        <source>Gray (black = 0, white = 1)</source>
        <translation>Gray（黑 = 0，白 = 1）</translation>
    </message>
    <message>
        <source>Greys (white = 0, black = 1, for print)</source>
        <translation>Greys（白 = 0，黑 = 1，适合打印）</translation>
    </message>
    <message>
        <source>Blues</source>
        <translation>Blues</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CompareRowsModel</name>
    <message>
        <source>A and B look most at the same source token</source>
        <translation>A 与 B 最关注同一个源词元</translation>
    </message>
    <message>
        <source>A and B look most at different tokens</source>
        <translation>A 与 B 最关注不同的词元</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>TV</source>
        <translation>TV</translation>
    </message>
    <message>
        <source>JS</source>
        <translation>JS</translation>
    </message>
    <message>
        <source>Argmax A</source>
        <translation>A 的 argmax</translation>
    </message>
    <message>
        <source>Argmax B</source>
        <translation>B 的 argmax</translation>
    </message>
    <message>
        <source>Total variation distance between the two rows: ½ Σ|a − b|, 0 to 1</source>
        <translation>两行之间的总变差距离：½ Σ|a − b|，取值 0 到 1</translation>
    </message>
    <message>
        <source>Jensen–Shannon divergence between the two rows, in nats (0 to ln 2)</source>
        <translation>两行之间的 Jensen–Shannon 散度，单位为奈特（0 到 ln 2）</translation>
    </message>
    <message>
        <source>The source token model A looks at most</source>
        <translation>模型 A 最关注的源词元</translation>
    </message>
    <message>
        <source>The source token model B looks at most (= when it is A&apos;s)</source>
        <translation>模型 B 最关注的源词元（与 A 相同时标 =）</translation>
    </message>
    <message>
        <source>ρ</source>
        <translation>ρ</translation>
    </message>
    <message>
        <source>Spearman&apos;s rank correlation of the row&apos;s source words: the attention against the method&apos;s own values (1: the same order; — when a row has fewer than two words or is constant)</source>
        <translation>该行源词的 Spearman 秩相关：注意力对照该方法自身的数值（1：顺序相同；某行不足两个词或数值恒定时为 —）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CompareView</name>
    <message>
        <source>Compare &amp;with:</source>
        <translation>比较对象(&amp;W)：</translation>
    </message>
    <message>
        <source>Model B, forced onto model A&apos;s output (or onto the reference when one is typed): a sibling of the open model, or any model with the same vocabularies</source>
        <translation>模型 B，强制到模型 A 的输出上（输入了参考译文时强制到参考译文上）：当前模型的同组模型，或任何词表相同的模型</translation>
    </message>
    <message>
        <source>&amp;Gold links:</source>
        <translation>金标准对齐(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Write a part of the comparison as PNG, SVG, PDF, CSV or JSON</source>
        <translation>把比较的某一部分写成 PNG、SVG、PDF、CSV 或 JSON</translation>
    </message>
    <message>
        <source>Model &amp;A…</source>
        <translation>模型 A(&amp;A)…</translation>
    </message>
    <message>
        <source>Model &amp;B…</source>
        <translation>模型 B(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Difference B − A…</source>
        <translation>差值 B − A(&amp;D)…</translation>
    </message>
    <message>
        <source>The whole &amp;comparison…</source>
        <translation>整个比较(&amp;C)…</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>(no model B)</source>
        <translation>（无模型 B）</translation>
    </message>
    <message>
        <source>Open model B</source>
        <translation>打开模型 B</translation>
    </message>
    <message>
        <source>attnviz models (*.safetensors);;All files (*)</source>
        <translation>attnviz 模型 (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Could not open the model %1: %2</source>
        <translation>无法打开模型 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be compared with the open model: %2</source>
        <translation>%1 无法与当前模型比较：%2</translation>
    </message>
    <message>
        <source>Choose model B above: a sibling of the open model or any model with the same vocabularies.</source>
        <translation>请在上方选择模型 B：当前模型的同组模型，或任何词表相同的模型。</translation>
    </message>
    <message>
        <source>Model B could not be decoded: %1</source>
        <translation>模型 B 无法解码：%1</translation>
    </message>
    <message>
        <source>Gold links: %1</source>
        <translation>金标准对齐：%1</translation>
    </message>
    <message numerus="yes">
        <source>Means over %n row(s): TV %1 · JS %2 nats · argmax agreement %3 %</source>
        <translation>
            <numerusform>%n 行的平均值：TV %1 · JS %2 奈特 · argmax 一致率 %3 %</numerusform>
        </translation>
    </message>
    <message>
        <source>Entropy A %1, B %2 nats</source>
        <translation>熵：A %1，B %2 奈特</translation>
    </message>
    <message>
        <source>AER A %1, B %2 (against the gold links)</source>
        <translation>AER：A %1，B %2（对照金标准对齐）</translation>
    </message>
    <message>
        <source>Gold links apply to a typed reference.</source>
        <translation>金标准对齐只适用于输入的参考译文。</translation>
    </message>
    <message>
        <source>%1: nothing to export (no comparison is shown)</source>
        <translation>%1：没有可导出的内容（未显示比较）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV numbers (*.csv);;JSON numbers (*.json)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf);;CSV 数值 (*.csv);;JSON 数值 (*.json)</translation>
    </message>
    <message>
        <source>e.g. 0-0 1-2 2?1 (Pharaoh: i-j sure, i?j possible; for the typed reference)</source>
        <translation>例如 0-0 1-2 2?1（Pharaoh 格式：i-j 为确定对齐，i?j 为可能对齐；针对输入的参考译文）</translation>
    </message>
    <message>
        <source>Gold alignment of the typed reference, as source-target word pairs counted from 0 (i-j sure, i?j possible): each model&apos;s alignment error rate (AER) is shown beside the distances</source>
        <translation>输入的参考译文的金标准对齐，即从 0 开始编号的源词-目标词对（i-j 为确定对齐，i?j 为可能对齐）：每个模型的对齐错误率（AER）显示在距离旁边</translation>
    </message>
    <message>
        <source>A&apos;s &amp;attention:</source>
        <translation>A 的注意力(&amp;A)：</translation>
    </message>
    <message>
        <source>B&apos;s a&amp;ttention:</source>
        <translation>B 的注意力(&amp;T)：</translation>
    </message>
    <message>
        <source>This model: %1</source>
        <translation>本模型：%1</translation>
    </message>
    <message>
        <source>The method could not be computed: %1</source>
        <translation>无法计算该方法：%1</translation>
    </message>
    <message numerus="yes">
        <source>Rank correlation of the attention and %1 over %n row(s): mean ρ %2</source>
        <translation>
            <numerusform>注意力与%1在 %n 行上的秩相关：平均 ρ %2</numerusform>
        </translation>
    </message>
    <message>
        <source>No row has two source words to rank.</source>
        <translation>没有哪一行有两个可排序的源词。</translation>
    </message>
    <message>
        <source>%1, shares of |R|</source>
        <translation>%1，|R| 的占比</translation>
    </message>
    <message>
        <source>The open model has no sibling to compare with: choose a model with the same vocabularies (Open…), or one of its explanation methods.</source>
        <translation>打开的模型没有可比较的同族模型：请选择词表相同的模型（打开…），或它的某种解释方法。</translation>
    </message>
    <message>
        <source>B is decoded with the same interventions as A.</source>
        <translation>B 用与 A 相同的干预解码。</translation>
    </message>
    <message numerus="yes">
        <source>B cannot take %n of A&apos;s interventions, left out: %1</source>
        <translation>
            <numerusform>B 不能接受 A 的 %n 项干预，已略去：%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Comparison</name>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>mean of heads, last layer</source>
        <translation>最后一层各头的平均</translation>
    </message>
    <message>
        <source>layer %1 · mean of heads</source>
        <translation>第 %1 层 · 各头的平均</translation>
    </message>
    <message>
        <source>layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 个头</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusBrowser</name>
    <message>
        <source>Open corpus…</source>
        <translation>打开语料…</translation>
    </message>
    <message>
        <source>Open a TSV file: source&lt;TAB&gt;reference[&lt;TAB&gt;gold links as i-j]</source>
        <translation>打开 TSV 文件：源句&lt;TAB&gt;参考译文[&lt;TAB&gt;金标准对齐，格式 i-j]</translation>
    </message>
    <message>
        <source>Rescore</source>
        <translation>重新打分</translation>
    </message>
    <message>
        <source>Score every line again with the open model</source>
        <translation>用当前模型为每一行重新打分</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the table as shown (filter and order) as CSV</source>
        <translation>把表格按当前显示（筛选与排序）保存为 CSV</translation>
    </message>
    <message>
        <source>Filter lines (any column&apos;s text)</source>
        <translation>筛选行（任一列的文字）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop scoring; the lines scored so far stay</source>
        <translation>停止打分；已打分的行保留</translation>
    </message>
    <message>
        <source>Open a model first: the corpus is read with the model&apos;s tokenizer.</source>
        <translation>请先打开一个模型：语料要用模型的分词器读取。</translation>
    </message>
    <message>
        <source>Cannot open the corpus: %1</source>
        <translation>无法打开语料：%1</translation>
    </message>
    <message numerus="yes">
        <source>No line of %1 can be read (%n bad line(s); the first: %2)</source>
        <translation>
            <numerusform>%1 中没有一行可以读取（%n 个错误行；第一个：%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 holds no lines (the file is empty or blank).</source>
        <translation>%1 中没有任何行（文件为空或只有空白）。</translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation>打开语料</translation>
    </message>
    <message>
        <source>Corpus files (*.tsv *.txt);;All files (*)</source>
        <translation>语料文件 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Scoring the corpus failed: %1</source>
        <translation>语料打分失败：%1</translation>
    </message>
    <message>
        <source>There is no corpus to export: open one first.</source>
        <translation>没有可导出的语料：请先打开一个。</translation>
    </message>
    <message>
        <source>Cannot export the table: %1</source>
        <translation>无法导出表格：%1</translation>
    </message>
    <message>
        <source>Export the corpus table</source>
        <translation>导出语料表格</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Corpus browser</source>
        <translation>语料浏览器</translation>
    </message>
    <message>
        <source>Open a corpus: a TSV file of source&lt;TAB&gt;reference lines, with gold links (Pharaoh i-j) as an optional third column. Click a line to open it in the window.</source>
        <translation>打开语料：每行为 源句&lt;TAB&gt;参考译文 的 TSV 文件，可选的第三列为金标准对齐（Pharaoh 格式 i-j）。点击一行即可在窗口中打开它。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n line(s)</source>
        <translation>
            <numerusform>%1：%n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n with gold links)</source>
        <translation>
            <numerusform>（其中 %n 行有金标准对齐）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n bad line(s) skipped (the first: %1)</source>
        <translation>
            <numerusform>跳过了 %n 个错误行（第一个：%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>scores are stale (another model): scoring again…</source>
        <translation>分数已过期（来自另一个模型）：正在重新打分…</translation>
    </message>
    <message>
        <source>scoring…</source>
        <translation>正在打分…</translation>
    </message>
    <message>
        <source>cancelled: %1 of %2 lines scored</source>
        <translation>已取消：%2 行中已打分 %1 行</translation>
    </message>
    <message>
        <source>scored in %1 s</source>
        <translation>打分用时 %1 秒</translation>
    </message>
    <message>
        <source>corpus BLEU %1, exact match %2 %</source>
        <translation>语料 BLEU %1，完全匹配 %2 %</translation>
    </message>
    <message>
        <source>, AER %1</source>
        <translation>，AER %1</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) not scored (see their tooltips)</source>
        <translation>
            <numerusform>%n 行未打分（原因见其提示）</numerusform>
        </translation>
    </message>
    <message>
        <source>Add an explanation method&apos;s AER and AOPC on each line&apos;s reference as columns</source>
        <translation>把某种解释方法在每行参考译文上的 AER 和 AOPC 加为列</translation>
    </message>
    <message>
        <source>No explanation columns</source>
        <translation>不加解释列</translation>
    </message>
    <message>
        <source>Explain: %1</source>
        <translation>解释：%1</translation>
    </message>
    <message>
        <source>Explaining the corpus failed: %1</source>
        <translation>解释语料失败：%1</translation>
    </message>
    <message>
        <source>explaining by %1: %2 of %3 lines</source>
        <translation>正在用%1解释：%2 / %3 行</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::CorpusTableModel</name>
    <message>
        <source>(not scored)</source>
        <translation>（未打分）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Line %1 was not scored: %2</source>
        <translation>第 %1 行未打分：%2</translation>
    </message>
    <message>
        <source>%1
Gold links: %2 links</source>
        <translation>%1
金标准对齐：%2 条</translation>
    </message>
    <message>
        <source>Attention confidence %1 (0 is best): coverage deviation %2, absentmindedness of the output %3, of the input %4</source>
        <translation>注意力置信度 %1（0 为最佳）：覆盖偏差 %2，输出的注意力涣散 %3，输入的注意力涣散 %4</translation>
    </message>
    <message>
        <source>This line has no gold links</source>
        <translation>这一行没有金标准对齐</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行号</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源句</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考译文</translation>
    </message>
    <message>
        <source>Output (stale)</source>
        <translation>输出（已过期）</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Log-prob</source>
        <translation>对数概率</translation>
    </message>
    <message>
        <source>Per token</source>
        <translation>每词元</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>BLEU+1</source>
        <translation>BLEU+1</translation>
    </message>
    <message>
        <source>Exact</source>
        <translation>完全匹配</translation>
    </message>
    <message>
        <source>AER</source>
        <translation>AER</translation>
    </message>
    <message>
        <source>The line&apos;s number in the file</source>
        <translation>该行在文件中的行号</translation>
    </message>
    <message>
        <source>The model&apos;s greedy output</source>
        <translation>模型的贪心解码输出</translation>
    </message>
    <message>
        <source>Log-probability of the greedy output, &lt;eos&gt; included (natural log)</source>
        <translation>贪心输出的对数概率，含 &lt;eos&gt;（自然对数）</translation>
    </message>
    <message>
        <source>Log-probability per output token</source>
        <translation>每个输出词元的平均对数概率</translation>
    </message>
    <message>
        <source>Mean entropy of the attention rows, in nats (higher: more spread out)</source>
        <translation>注意力各行的平均熵，单位为奈特（越高越分散）</translation>
    </message>
    <message>
        <source>Attention confidence: coverage deviation plus absentmindedness penalties (0 is best)</source>
        <translation>注意力置信度：覆盖偏差与注意力涣散惩罚之和（0 为最佳）</translation>
    </message>
    <message>
        <source>Sentence BLEU+1 against the reference, in % (BLEU-4 with one added to the 2- to 4-gram counts, so that short sentences do not all score 0; the CSV has the unsmoothed BLEU too)</source>
        <translation>相对参考译文的句子级 BLEU+1，单位 %（在 2 到 4 元组的计数上各加一的 BLEU-4，使短句不至于全为 0；CSV 中也有未平滑的 BLEU）</translation>
    </message>
    <message>
        <source>Whether the output equals the reference</source>
        <translation>输出是否与参考译文完全相同</translation>
    </message>
    <message>
        <source>Alignment error rate of the attention forced onto the reference, against the line&apos;s gold links</source>
        <translation>强制解码参考译文时注意力的对齐错误率（AER），对照该行的金标准对齐</translation>
    </message>
    <message>
        <source>Line %1 was not explained: %2</source>
        <translation>第 %1 行未能解释：%2</translation>
    </message>
    <message>
        <source>AER (%1)</source>
        <translation>AER（%1）</translation>
    </message>
    <message>
        <source>AER (method)</source>
        <translation>AER（方法）</translation>
    </message>
    <message>
        <source>AOPC (%1)</source>
        <translation>AOPC（%1）</translation>
    </message>
    <message>
        <source>AOPC (method)</source>
        <translation>AOPC（方法）</translation>
    </message>
    <message>
        <source>Alignment error rate of the links the chosen explanation method gives on the reference</source>
        <translation>所选解释方法在参考译文上给出的对齐链接的对齐错误率</translation>
    </message>
    <message>
        <source>AOPC of the chosen explanation method on the reference: the mean fall of log p when its first 1–5 words are replaced by &lt;unk&gt; (higher: it found what the model used)</source>
        <translation>所选解释方法在参考译文上的 AOPC：把它排在前 1–5 位的词替换为 &lt;unk&gt; 后 log p 的平均下降（越高：它找到了模型真正使用的词）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::EpochMetricsTable</name>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Valid. loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>AER</source>
        <translation>AER</translation>
    </message>
    <message>
        <source>After each epoch: the validation corpus decoded greedily by the model just validated, scored as attnviz-cli eval scores it (corpus BLEU-4 in %; the AER of the attention&apos;s argmax links against the gold links, where the corpus has them)</source>
        <translation>每轮结束后：用刚刚验证过的模型对验证语料做贪心解码，并按 attnviz-cli eval 的方式打分（语料级 BLEU-4，单位为 %；在语料带有金标准对齐时，给出注意力 argmax 对齐相对金标准对齐的对齐错误率 AER）</translation>
    </message>
    <message>
        <source>%1 (part)</source>
        <translation>%1（部分）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExplainProgress</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop waiting for this explanation and show the attention again</source>
        <translation>不再等待这次解释，重新显示注意力</translation>
    </message>
    <message>
        <source>The explanation method&apos;s model passes, counted as they finish</source>
        <translation>解释方法运行模型的遍数，每完成一遍计一次</translation>
    </message>
    <message>
        <source>%1… %2 s, pass %3/%4</source>
        <translation>%1… %2 秒，第 %3/%4 遍</translation>
    </message>
    <message>
        <source>%1… %2 s</source>
        <translation>%1… %2 秒</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExplainScoresPanel</name>
    <message>
        <source>AER</source>
        <translation>AER</translation>
    </message>
    <message>
        <source>AOPC</source>
        <translation>AOPC</translation>
    </message>
    <message>
        <source>Alignment error rate of the links the method gives, against the gold links (lower is better)</source>
        <translation>该方法给出的对齐链接相对于标准链接的对齐错误率（越低越好）</translation>
    </message>
    <message>
        <source>Comprehensiveness: the mean fall of log p of each row&apos;s token when the method&apos;s first 1–5 words are replaced by &lt;unk&gt; (higher: the method found what the model used; compare with the random order)</source>
        <translation>全面性：把该方法排在前 1–5 位的词替换为 &lt;unk&gt; 后，每行词元 log p 的平均下降（越高：该方法找到了模型真正使用的词；请与随机顺序比较）</translation>
    </message>
    <message>
        <source>Mean Spearman rank correlation of each row with occlusion&apos;s (1: the same order of words)</source>
        <translation>每行与遮挡结果的平均 Spearman 秩相关（1：词的顺序相同）</translation>
    </message>
    <message>
        <source>Could not measure: %1</source>
        <translation>无法度量：%1</translation>
    </message>
    <message>
        <source>Measuring every method on this sentence…</source>
        <translation>正在用每种方法度量这个句子…</translation>
    </message>
    <message>
        <source>Type a sentence to measure which explanation is right.</source>
        <translation>输入一个句子，度量哪种解释是对的。</translation>
    </message>
    <message>
        <source>This sentence, forced along its reference, against the gold links.</source>
        <translation>这个句子沿参考译文强制解码，对照标准链接。</translation>
    </message>
    <message>
        <source>This sentence&apos;s decode. Type a reference and its gold links to get AER.</source>
        <translation>这个句子的解码结果。输入参考译文及其标准链接即可得到 AER。</translation>
    </message>
    <message>
        <source>P</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>R</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>ρ occ.</source>
        <translation>与遮挡 ρ</translation>
    </message>
    <message>
        <source>Precision of the method&apos;s links against the gold links</source>
        <translation>该方法的链接相对于标准链接的精确率</translation>
    </message>
    <message>
        <source>Recall of the method&apos;s links against the gold links</source>
        <translation>该方法的链接相对于标准链接的召回率</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>The words in a seeded random order: the floor AOPC is read against</source>
        <translation>按固定种子随机排列的词：AOPC 的比较下限</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Explanation</name>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Norm-weighted attention</source>
        <translation>范数加权注意力</translation>
    </message>
    <message>
        <source>Gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Integrated gradients</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>Occlusion</source>
        <translation>遮挡</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>The model&apos;s own attention weights</source>
        <translation>模型自身的注意力权重</translation>
    </message>
    <message>
        <source>Attention weight times the size of what each source word adds (Kobayashi et al.)</source>
        <translation>注意力权重乘以每个源词所贡献向量的大小（Kobayashi 等）</translation>
    </message>
    <message>
        <source>How log p of each output token changes with each source word&apos;s embedding, times that embedding (signed)</source>
        <translation>每个输出词的 log p 随各源词嵌入的变化率，乘以该嵌入（有正负）</translation>
    </message>
    <message>
        <source>The size of the gradient of log p with respect to each source word</source>
        <translation>log p 对每个源词的梯度大小</translation>
    </message>
    <message>
        <source>Gradients averaged from an all-zero source to the real one, times the embedding; each row sums to the change of log p (signed)</source>
        <translation>从全零源句到真实源句路径上的平均梯度乘以嵌入；每行之和等于 log p 的变化（有正负）</translation>
    </message>
    <message>
        <source>How much log p falls when the source word is replaced by &lt;unk&gt; (signed)</source>
        <translation>把该源词换成 &lt;unk&gt; 后 log p 下降多少（有正负）</translation>
    </message>
    <message>
        <source>Attention carried through the encoder&apos;s self-attention layers (Abnar &amp; Zuidema)</source>
        <translation>经编码器各自注意力层传递后的注意力（Abnar 与 Zuidema）</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>范数</translation>
    </message>
    <message>
        <source>Grad × input</source>
        <translation>梯度×输入</translation>
    </message>
    <message>
        <source>Grad norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>IG</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>注意力展开</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportDialog</name>
    <message>
        <source>Export heatmap</source>
        <translation>导出热力图</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>PNG: written into the file; SVG/PDF: the page is width/DPI × height/DPI inches</source>
        <translation>PNG：写入文件；SVG/PDF：页面大小为 宽度/DPI × 高度/DPI 英寸</translation>
    </message>
    <message>
        <source>Optional title above the matrix</source>
        <translation>可选：矩阵上方的标题</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>F&amp;ile:</source>
        <translation>文件(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Width:</source>
        <translation>宽度(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Height:</source>
        <translation>高度(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;DPI:</source>
        <translation>&amp;DPI：</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>请选择文件。</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV attention matrix (*.csv)</source>
        <translation>CSV 注意力矩阵 (*.csv)</translation>
    </message>
    <message>
        <source>JSON decode object (*.json)</source>
        <translation>JSON 解码结果 (*.json)</translation>
    </message>
    <message>
        <source>White</source>
        <translation>白色</translation>
    </message>
    <message>
        <source>Black</source>
        <translation>黑色</translation>
    </message>
    <message>
        <source>As in the window (%1)</source>
        <translation>与窗口相同 (%1)</translation>
    </message>
    <message>
        <source>The figure&apos;s background; the labels are drawn black or white against it</source>
        <translation>图的背景色；标签会相应地用黑色或白色绘制</translation>
    </message>
    <message>
        <source>&amp;Background:</source>
        <translation>背景(&amp;B)：</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>“.%1” is not a format the export writes: name the file .png, .svg, .pdf, .csv or .json.</source>
        <translation>“.%1”不是可以导出的格式：文件名请以 .png、.svg、.pdf、.csv 或 .json 结尾。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ForceTokenBox</name>
    <message>
        <source>Or force &amp;any output token here:</source>
        <translation>或在此强制任意输出词元(&amp;A)：</translation>
    </message>
    <message>
        <source>Type a word of the model&apos;s output vocabulary…</source>
        <translation>输入模型输出词表中的一个词…</translation>
    </message>
    <message>
        <source>Type any token of the model&apos;s output vocabulary (the list completes it) and press Enter: it is forced at this step and the decoder goes on from it. Edit ▸ Undo takes it back.</source>
        <translation>输入模型输出词表中的任意词元（列表会补全它），按 Enter：它在这一步被强制，解码器从它继续解码。编辑 ▸ 撤销可以取消。</translation>
    </message>
    <message>
        <source>“%1” is not in the model&apos;s output vocabulary: choose a word from the list.</source>
        <translation>“%1”不在模型的输出词表中：请从列表中选择一个词。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ForcingHistory</name>
    <message>
        <source>Force “%1” at step %2</source>
        <translation>在第 %2 步强制“%1”</translation>
    </message>
    <message>
        <source>Clear forced tokens</source>
        <translation>清除强制词元</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::GettingStartedDialog</name>
    <message>
        <source>&lt;h3&gt;Watching attention work&lt;/h3&gt;&lt;p&gt;Type an English sentence under &lt;b&gt;Source&lt;/b&gt;: the model translates it, and the heatmap shows where it looked. &lt;b&gt;Each row&lt;/b&gt; is one output token, in the order the decoder produced it; &lt;b&gt;each column&lt;/b&gt; is a source token, with &lt;tt&gt;&amp;lt;sos&amp;gt;&lt;/tt&gt; and &lt;tt&gt;&amp;lt;eos&amp;gt;&lt;/tt&gt; at the ends. A cell&apos;s colour is the attention weight: how much that output step read that source word. Every row adds up to 1.&lt;/p&gt;&lt;h3&gt;The four scorings&lt;/h3&gt;&lt;p&gt;The sample models of a task differ only in how a decoder state is scored against each source word before the softmax: &lt;b&gt;additive&lt;/b&gt; (Bahdanau: a small network of both), &lt;b&gt;dot&lt;/b&gt; (their dot product), &lt;b&gt;scaled dot&lt;/b&gt; (the dot product divided by √d) and &lt;b&gt;general&lt;/b&gt; (Luong: a learned matrix between them). Switch with the Scoring toolbar or Ctrl+1 … Ctrl+4 and compare the pictures: the same data, the same training, another score.&lt;/p&gt;&lt;h3&gt;Stepping&lt;/h3&gt;&lt;p&gt;The step buttons (or ← and → in the heatmap) move the decoder one token at a time. The &lt;b&gt;Current step&lt;/b&gt; panel shows that row&apos;s weights as bars, the most likely next tokens and their probabilities.&lt;/p&gt;&lt;h3&gt;What if?&lt;/h3&gt;&lt;p&gt;Click another candidate in the Current step panel, or type any word of the output vocabulary, to force it at that step: the decoder goes on from there and the heatmap follows. Edit ▸ Undo takes it back. A reference translation forces a whole sentence.&lt;/p&gt;&lt;h3&gt;Where to go next&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Explain by&lt;/b&gt; (toolbar): gradients, integrated gradients and occlusion beside the attention: what the model used, not only where it looked.&lt;/li&gt;&lt;li&gt;Right-click a source word: &lt;b&gt;Knock out&lt;/b&gt; it and watch the translation change.&lt;/li&gt;&lt;li&gt;View ▸ &lt;b&gt;Beam search&lt;/b&gt;, &lt;b&gt;Compare models&lt;/b&gt;, &lt;b&gt;Attention heads&lt;/b&gt; (Transformer models).&lt;/li&gt;&lt;li&gt;File ▸ &lt;b&gt;Model library&lt;/b&gt; for other tasks, File ▸ &lt;b&gt;Train a model&lt;/b&gt; to watch attention learn.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Help ▸ Getting started shows this page again.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;看注意力如何工作&lt;/h3&gt;&lt;p&gt;在&lt;b&gt;源句&lt;/b&gt;框里输入一句英文：模型把它译出来，热力图显示它看了哪里。&lt;b&gt;每一行&lt;/b&gt;是一个输出词元，按解码器生成的先后排列；&lt;b&gt;每一列&lt;/b&gt;是一个源词元，两端是 &lt;tt&gt;&amp;lt;sos&amp;gt;&lt;/tt&gt; 和 &lt;tt&gt;&amp;lt;eos&amp;gt;&lt;/tt&gt;。单元格的颜色就是注意力权重：这一步输出读了那个源词多少。每一行的和都是 1。&lt;/p&gt;&lt;h3&gt;四种打分函数&lt;/h3&gt;&lt;p&gt;同一任务的示例模型只在一处不同：softmax 之前怎样给解码器状态和每个源词打分——&lt;b&gt;加性&lt;/b&gt;（Bahdanau：用一个小网络组合两者）、&lt;b&gt;点积&lt;/b&gt;（两者的点积）、&lt;b&gt;缩放点积&lt;/b&gt;（点积除以 √d）和&lt;b&gt;一般 (general)&lt;/b&gt;（Luong：两者之间一个学到的矩阵）。用“打分函数”工具栏或 Ctrl+1 … Ctrl+4 切换，比较几幅图：同样的数据，同样的训练，只换了打分函数。&lt;/p&gt;&lt;h3&gt;逐步解码&lt;/h3&gt;&lt;p&gt;单步按钮（或在热力图中按 ← 和 →）让解码器一次走一个词元。&lt;b&gt;当前解码步&lt;/b&gt;面板用柱状图显示这一行的权重，以及最可能的下一个词元和它们的概率。&lt;/p&gt;&lt;h3&gt;如果……会怎样？&lt;/h3&gt;&lt;p&gt;在“当前解码步”面板里点击另一个候选词元，或输入输出词表中的任意一个词，就把它强制用在这一步：解码器从那里继续，热力图随之更新。编辑 ▸ 撤销可以收回。参考译文会强制整句。&lt;/p&gt;&lt;h3&gt;接下来&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;解释方法&lt;/b&gt;（工具栏）：在注意力旁边看梯度、积分梯度和遮挡——模型用了什么，而不只是它看了哪里。&lt;/li&gt;&lt;li&gt;右键点击一个源词：&lt;b&gt;屏蔽&lt;/b&gt;它，看译文怎样变化。&lt;/li&gt;&lt;li&gt;视图 ▸ &lt;b&gt;束搜索&lt;/b&gt;、&lt;b&gt;比较模型&lt;/b&gt;、&lt;b&gt;注意力头&lt;/b&gt;（Transformer 模型）。&lt;/li&gt;&lt;li&gt;文件 ▸ &lt;b&gt;模型库&lt;/b&gt;可以打开其他任务，文件 ▸ &lt;b&gt;训练模型&lt;/b&gt;可以看注意力怎样学出来。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;帮助 ▸ 入门指南可以再次显示本页。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>入门指南</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::GoldLinksPanel</name>
    <message>
        <source>&amp;Gold links:</source>
        <translation>金标准对齐(&amp;G)：</translation>
    </message>
    <message>
        <source>Optional: the reference&apos;s word alignment, e.g. 0-0 1-2 2?1</source>
        <translation>可选：参考译文的词对齐，例如 0-0 1-2 2?1</translation>
    </message>
    <message>
        <source>Gold links of the reference in Pharaoh format: i-j links source word i to reference word j (both counted from 0, &lt;sos&gt;/&lt;eos&gt; not counted) as sure, i?j as possible. The heatmap marks each cell correct, false or missed and the AER, precision and recall are shown below.</source>
        <translation>参考译文的金标准对齐，采用 Pharaoh 格式：i-j 表示源语言第 i 个词与参考译文第 j 个词确定对齐（都从 0 开始编号，不计 &lt;sos&gt;/&lt;eos&gt;），i?j 表示可能对齐。热力图会把每个格子标为正确、错误或遗漏，下方显示 AER、精确率和召回率。</translation>
    </message>
    <message>
        <source>Load…</source>
        <translation>载入…</translation>
    </message>
    <message>
        <source>Read the links from a text file (its first non-blank line)</source>
        <translation>从文本文件读取对齐（取第一个非空行）</translation>
    </message>
    <message>
        <source>argmax</source>
        <translation>argmax（最大值）</translation>
    </message>
    <message>
        <source>threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>shift</source>
        <translation>错位（shift）</translation>
    </message>
    <message>
        <source>How links are read off the attention: argmax, each reference word to the source word it attends most; threshold, every source word with at least the weight τ; shift, the argmax of the next step&apos;s row</source>
        <translation>如何从注意力中读出对齐：argmax，参考译文的每个词对齐到它注意力最大的源词；阈值，对齐到权重不小于 τ 的所有源词；错位（shift），取下一步那一行的最大值</translation>
    </message>
    <message>
        <source>τ </source>
        <translation>τ </translation>
    </message>
    <message>
        <source>The threshold τ of the threshold mode</source>
        <translation>阈值模式的阈值 τ</translation>
    </message>
    <message>
        <source>Count &lt;sos&gt;/&lt;eos&gt;</source>
        <translation>计入 &lt;sos&gt;/&lt;eos&gt;</translation>
    </message>
    <message>
        <source>Off: &lt;sos&gt; and &lt;eos&gt; are taken out of each row before the links are read. On: the row as it is, and a word that attends most to &lt;sos&gt; or &lt;eos&gt; gets no link</source>
        <translation>关闭：读取对齐前先把 &lt;sos&gt; 和 &lt;eos&gt; 从每一行中去掉。打开：按原样使用整行，注意力最大处落在 &lt;sos&gt; 或 &lt;eos&gt; 上的词不产生对齐</translation>
    </message>
    <message>
        <source>Gold links: %1</source>
        <translation>金标准对齐：%1</translation>
    </message>
    <message>
        <source>Load gold links</source>
        <translation>载入金标准对齐</translation>
    </message>
    <message>
        <source>Text files (*.txt *.align *.tsv);;All files (*)</source>
        <translation>文本文件 (*.txt *.align *.tsv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Gold links describe the reference: type a reference translation.</source>
        <translation>金标准对齐描述的是参考译文：请先输入参考译文。</translation>
    </message>
    <message>
        <source>Gold links measure the reference: clear the forced tokens to see them.</source>
        <translation>金标准对齐衡量的是参考译文：清除强制的词元后才能看到。</translation>
    </message>
    <message>
        <source>AER %1 · precision %2 · recall %3   ● correct %4 · ✕ false %5 · ○ missed %6</source>
        <translation>AER %1 · 精确率 %2 · 召回率 %3   ● 正确 %4 · ✕ 错误 %5 · ○ 遗漏 %6</translation>
    </message>
    <message>
        <source>%1 predicted links (%2), %3 sure and %4 possible gold links</source>
        <translation>预测对齐 %1 个（%2），金标准对齐：确定 %3 个，可能 %4 个</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadChoiceBox</name>
    <message>
        <source>The model&apos;s attention (an RNN has no heads)</source>
        <translation>模型的注意力（RNN 没有多个头）</translation>
    </message>
    <message>
        <source>(no model)</source>
        <translation>（无模型）</translation>
    </message>
    <message>
        <source>Only a Transformer&apos;s cross-attention has layers and heads to choose from</source>
        <translation>只有 Transformer 的交叉注意力才有可选的层和头</translation>
    </message>
    <message>
        <source>Average of heads, last layer (the model&apos;s attention)</source>
        <translation>最后一层各头的平均（模型的注意力）</translation>
    </message>
    <message>
        <source>Layer %1 · average of heads</source>
        <translation>第 %1 层 · 各头的平均</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 个头</translation>
    </message>
    <message>
        <source>Which cross-attention of this Transformer is compared: the model&apos;s attention (the last decoder layer&apos;s average over heads), one layer&apos;s average, or one head. The maps, distances and AER use it.</source>
        <translation>比较这个 Transformer 的哪一个交叉注意力：模型的注意力（解码器最后一层各头的平均）、某一层各头的平均，或某一个头。热图、距离和 AER 都按它计算。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadGridCanvas</name>
    <message>
        <source>%1 · %2: click to show it in the heatmap</source>
        <translation>%1 · %2：点击即在热力图中显示</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadGridView</name>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Which attention the grid shows: every layer (rows) and head (columns)</source>
        <translation>网格显示哪一种注意力：每一层（行）和每个头（列）</translation>
    </message>
    <message>
        <source>&amp;Average over heads</source>
        <translation>对各头取平均(&amp;A)</translation>
    </message>
    <message>
        <source>One thumbnail per layer: the mean of its heads (a click shows that mean)</source>
        <translation>每层一个缩略图：该层各头的平均（点击即显示这个平均）</translation>
    </message>
    <message>
        <source>&amp;Default view</source>
        <translation>默认视图(&amp;D)</translation>
    </message>
    <message>
        <source>Show the model&apos;s attention again in the heatmap: the last layer&apos;s cross-attention, averaged over its heads</source>
        <translation>在热力图中重新显示模型的注意力：最后一层的交叉注意力，对各头取平均</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Save the grid as one image (PNG, SVG, PDF)</source>
        <translation>将网格保存为一张图像（PNG、SVG、PDF）</translation>
    </message>
    <message>
        <source>Type a sentence to see the attention heads.</source>
        <translation>输入一个句子即可查看各注意力头。</translation>
    </message>
    <message>
        <source>This model has no attention heads and no self-attention: it is a recurrent encoder-decoder (RNN) with one attention, the one the heatmap shows. The head grid is for Transformer models.</source>
        <translation>这个模型没有注意力头，也没有自注意力：它是循环神经网络（RNN）编码器-解码器，只有一种注意力，即热力图所显示的。注意力头网格只适用于 Transformer 模型。</translation>
    </message>
    <message>
        <source>Click a thumbnail to show it in the heatmap. %1</source>
        <translation>点击一个缩略图即在热力图中显示它。%1</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message numerus="yes">
        <source>mean of %n head(s)</source>
        <translation>
            <numerusform>%n 个头的平均</numerusform>
        </translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n head(s)</source>
        <translation>
            <numerusform>%n 个头</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the head grid</source>
        <translation>导出注意力头网格</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>The grid was not saved. %1</source>
        <translation>网格未保存。%1</translation>
    </message>
    <message>
        <source>&amp;Back to the main decode</source>
        <translation>回到主解码(&amp;B)</translation>
    </message>
    <message>
        <source>Show the window&apos;s own decode again instead of the beam hypothesis</source>
        <translation>不再显示束搜索假设，重新显示窗口自己的解码</translation>
    </message>
    <message>
        <source>The window&apos;s decode. A hypothesis chosen in the beam search view shows here.</source>
        <translation>窗口自己的解码。在束搜索视图中选中的假设会显示在这里。</translation>
    </message>
    <message numerus="yes">
        <source>Beam search: unfinished hypothesis of %n token(s), log p %1</source>
        <translation>
            <numerusform>束搜索：未完成的假设，共 %n 个词元，log p %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Beam hypothesis %1 of %2, log p %3</source>
        <translation>束搜索假设 %1（共 %2 个），log p %3</translation>
    </message>
    <message>
        <source>&amp;Restore this head</source>
        <translation>恢复这个头(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Remove this head</source>
        <translation>移除这个头(&amp;R)</translation>
    </message>
    <message>
        <source>The head&apos;s output counts again</source>
        <translation>这个头的输出重新计入</translation>
    </message>
    <message>
        <source>Decode again with this head&apos;s output set to zero</source>
        <translation>将这个头的输出置零后重新解码</translation>
    </message>
    <message>
        <source>&amp;Show in the heatmap</source>
        <translation>在热力图中显示(&amp;S)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadImportanceChart</name>
    <message>
        <source>BLEU points lost when the head is removed</source>
        <translation>移除该注意力头后损失的 BLEU 分数</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadImportancePanel</name>
    <message>
        <source>&amp;Lines:</source>
        <translation>行数(&amp;L)：</translation>
    </message>
    <message>
        <source>How many lines of the corpus (from its first) to compute on; each costs two decodes per head</source>
        <translation>在语料的前多少行上计算；每行每个注意力头需解码两次</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Remove each head in turn and decode the lines again (on every core, off the window)</source>
        <translation>依次移除每个注意力头并重新解码这些行（使用所有核心，不占用窗口线程）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop: nothing of a partial run is shown</source>
        <translation>停止：不显示未完成运行的任何结果</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>BLEU off</source>
        <translation>移除后 BLEU</translation>
    </message>
    <message>
        <source>ΔBLEU</source>
        <translation>ΔBLEU</translation>
    </message>
    <message>
        <source>Δ log p</source>
        <translation>Δ log p</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Counted from 1, as in the head grid (attnviz-cli counts from 0).</source>
        <translation>从 1 开始计数，与注意力头网格一致（attnviz-cli 从 0 开始）。</translation>
    </message>
    <message>
        <source>Which of the Transformer&apos;s three attentions the head is in</source>
        <translation>该注意力头属于 Transformer 三种注意力中的哪一种</translation>
    </message>
    <message>
        <source>Corpus BLEU of the greedy translations with this head removed (its output set to zero)</source>
        <translation>移除该注意力头（其输出置零）后贪心译文的语料 BLEU</translation>
    </message>
    <message>
        <source>BLEU with the head removed minus BLEU with every head (negative: the head was needed)</source>
        <translation>移除该注意力头后的 BLEU 减去保留全部注意力头时的 BLEU（负值：该头是必需的）</translation>
    </message>
    <message>
        <source>Change of the mean log-probability per token of the references when the head is removed</source>
        <translation>移除该注意力头后参考译文每个词元平均对数概率的变化</translation>
    </message>
    <message>
        <source>Gradient importance (Michel et al. 2019): the mean over lines of |∂L/∂g|, g a gate on the head&apos;s output, L the references&apos; loss; large: the loss is sensitive to the head</source>
        <translation>梯度重要性（Michel 等，2019）：各行 |∂L/∂g| 的平均值，g 为该注意力头输出上的门控，L 为参考译文的损失；值大：损失对该头敏感</translation>
    </message>
    <message numerus="yes">
        <source>%1, first %n line(s)</source>
        <translation>
            <numerusform>%1，前 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a Transformer model to see which of its heads matter.</source>
        <translation>打开一个 Transformer 模型，查看哪些注意力头重要。</translation>
    </message>
    <message>
        <source>This model is a recurrent encoder-decoder (RNN): it has one attention and no heads to remove. Head importance is for Transformer models.</source>
        <translation>此模型是循环编码器-解码器（RNN）：它只有一个注意力，没有可移除的注意力头。注意力头重要性仅适用于 Transformer 模型。</translation>
    </message>
    <message numerus="yes">
        <source>Removing each of the %n head(s) in turn on %1, first %2 line(s)…</source>
        <translation>
            <numerusform>正在 %1 的前 %2 行上依次移除 %n 个注意力头中的每一个…</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not compute: %1</source>
        <translation>无法计算：%1</translation>
    </message>
    <message>
        <source>%1: BLEU %2 with every head, mean log p %3 per token. Sorted by the BLEU lost when each head alone is removed (%4 s).</source>
        <translation>%1：保留全部注意力头时 BLEU 为 %2，每个词元平均 log p 为 %3。按单独移除每个注意力头时损失的 BLEU 排序（%4 秒）。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n line(s) with a reference. Compute removes each head in turn and decodes them again.</source>
        <translation>
            <numerusform>%1：%n 行带参考译文。“计算”会依次移除每个注意力头并重新解码这些行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled: nothing of a partial run is shown.</source>
        <translation>已取消：不显示未完成运行的任何结果。</translation>
    </message>
    <message>
        <source>enc L%1 H%2</source>
        <translation>编码 L%1 H%2</translation>
    </message>
    <message>
        <source>dec L%1 H%2</source>
        <translation>解码 L%1 H%2</translation>
    </message>
    <message>
        <source>cross L%1 H%2</source>
        <translation>交叉 L%1 H%2</translation>
    </message>
    <message>
        <source>%1, layer %2, head %3: BLEU %4 without it (%5), mean log p %6, gradient importance %7</source>
        <translation>%1，第 %2 层，第 %3 个头：移除后 BLEU 为 %4（%5），平均 log p 为 %6，梯度重要性为 %7</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapActions</name>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>&amp;Zoom in</source>
        <translation>放大(&amp;Z)</translation>
    </message>
    <message>
        <source>Larger heatmap cells</source>
        <translation>放大热力图的单元格</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Smaller heatmap cells, more of a long sentence in view</source>
        <translation>缩小热力图的单元格，长句可见的部分更多</translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>The heatmap&apos;s first view again</source>
        <translation>回到热力图最初的视图</translation>
    </message>
    <message>
        <source>Copy cell &amp;values</source>
        <translation>复制单元格数值(&amp;V)</translation>
    </message>
    <message>
        <source>Copy the weights shown, with their tokens, as tab-separated text (for a spreadsheet)</source>
        <translation>将显示的权重连同词元复制为制表符分隔的文本（可粘贴到电子表格）</translation>
    </message>
    <message>
        <source>&amp;Inspect cell</source>
        <translation>检查单元格(&amp;I)</translation>
    </message>
    <message>
        <source>Select this cell: the cell inspector shows how its weight was made</source>
        <translation>选中此单元格：单元格检查器显示其权重是如何算出的</translation>
    </message>
    <message>
        <source>&amp;Restore “%1”</source>
        <translation>恢复“%1”(&amp;R)</translation>
    </message>
    <message>
        <source>Take this word&apos;s knockout away: the model reads it again</source>
        <translation>撤销对这个词的屏蔽：模型重新读取它</translation>
    </message>
    <message>
        <source>&amp;Knock out “%1”</source>
        <translation>屏蔽“%1”(&amp;K)</translation>
    </message>
    <message>
        <source>Decode again with this source word hidden from the attention (its scores set to −∞)</source>
        <translation>在注意力中隐去这个源词后重新解码（其打分设为 −∞）</translation>
    </message>
    <message>
        <source>&amp;Knock out this word</source>
        <translation>屏蔽这个词(&amp;K)</translation>
    </message>
    <message>
        <source>Right-click a source word or a cell of its column</source>
        <translation>右键单击一个源词或其所在列的单元格</translation>
    </message>
    <message>
        <source>&amp;Attend only here at this step</source>
        <translation>此步只关注这里(&amp;A)</translation>
    </message>
    <message>
        <source>This step&apos;s attention becomes one-hot on this word; decoding goes on from there</source>
        <translation>这一步的注意力变为只落在这个词上的独热向量；解码从这里继续</translation>
    </message>
    <message>
        <source>Only for the recurrent (RNN) models: a Transformer has many heads, not one attention row</source>
        <translation>仅适用于循环 (RNN) 模型：Transformer 有多个头，而不是一行注意力</translation>
    </message>
    <message>
        <source>Knockouts name pieces: choose View ▸ Pieces to knock one out</source>
        <translation>屏蔽按子词指定：请选“视图 ▸ 子词”后再屏蔽</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapLegend</name>
    <message>
        <source>coverage:</source>
        <translation>覆盖度：</translation>
    </message>
    <message>
        <source>below %1, neglected</source>
        <translation>低于 %1：被忽略</translation>
    </message>
    <message>
        <source>above %1, over-attended</source>
        <translation>高于 %1：过度关注</translation>
    </message>
    <message>
        <source>1: read once</source>
        <translation>1：恰好读一次</translation>
    </message>
    <message>
        <source>H / ln S (row entropy):</source>
        <translation>H / ln S（行熵）：</translation>
    </message>
    <message>
        <source>below %1</source>
        <translation>低于 %1</translation>
    </message>
    <message>
        <source>from %1, diffuse (dashed line)</source>
        <translation>自 %1 起：分散（虚线）</translation>
    </message>
    <message>
        <source>gold links:</source>
        <translation>金标准对齐：</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>false</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>missed</source>
        <translation>遗漏</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapScene</name>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>coverage</source>
        <translation>覆盖度</translation>
    </message>
    <message>
        <source>H / ln S</source>
        <translation>H / ln S</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapView</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; ← &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;weight %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; ← &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;权重 %3</translation>
    </message>
    <message>
        <source>&lt;br&gt;score %1</source>
        <translation>&lt;br&gt;打分 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;score — (outside the window)</source>
        <translation>&lt;br&gt;打分 —（在局部窗口之外）</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;target %1, source %2&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;目标 %1，源 %2&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; ← &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3: %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; ← &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3：%4</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::InterventionEdits</name>
    <message>
        <source>Switch on: %1</source>
        <translation>打开：%1</translation>
    </message>
    <message>
        <source>Switch off: %1</source>
        <translation>关闭：%1</translation>
    </message>
    <message>
        <source>Remove: %1</source>
        <translation>移除：%1</translation>
    </message>
    <message>
        <source>Clear all interventions</source>
        <translation>清除所有干预</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::InterventionListView</name>
    <message>
        <source>&amp;Plain model</source>
        <translation>原始模型(&amp;P)</translation>
    </message>
    <message>
        <source>Take every intervention away: the model as it was trained (one step of Edit ▸ Undo)</source>
        <translation>撤去所有干预：回到训练所得的模型（编辑 ▸ 撤销 的一步）</translation>
    </message>
    <message>
        <source>On: the decode makes this intervention; off: kept in the list, not made</source>
        <translation>打开：解码时施加这项干预；关闭：保留在列表中，但不施加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove this intervention from the list</source>
        <translation>从列表中移除这项干预</translation>
    </message>
    <message>
        <source>No interventions: the plain model. Right-click a source word in the heatmap to knock it out, a cell to make its step attend only there (recurrent models), or a head in the Attention heads dock to remove it (Transformers).</source>
        <translation>没有干预：原始模型。在热力图中右键单击一个源词可屏蔽它，右键单击一个单元格可让该步只关注那里（循环模型），在“注意力头”面板中右键单击一个头可移除它（Transformer）。</translation>
    </message>
    <message>
        <source>Every intervention is switched off, or the decode has not come yet: the plain model.</source>
        <translation>所有干预都已关闭，或解码尚未完成：原始模型。</translation>
    </message>
    <message numerus="yes">
        <source>The output is the plain model&apos;s, token for token (%n token(s)).</source>
        <translation>
            <numerusform>输出与原始模型的完全相同，逐个词元一致（%n 个词元）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Against the plain model: %1 changed, %2 added, %3 dropped, %4 kept.</source>
        <translation>与原始模型相比：%1 个改变，%2 个新增，%3 个丢失，%4 个保留。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Interventions</name>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Knock out “%1” (position %2)</source>
        <translation>屏蔽“%1”（位置 %2）</translation>
    </message>
    <message>
        <source>Step %1: attend only to “%2”</source>
        <translation>第 %1 步：只关注“%2”</translation>
    </message>
    <message>
        <source>Step %1 “%2”: attend only to “%3”</source>
        <translation>第 %1 步“%2”：只关注“%3”</translation>
    </message>
    <message>
        <source>%1: layer %2, head %3 removed</source>
        <translation>%1：第 %2 层第 %3 个头已移除</translation>
    </message>
    <message>
        <source>Every word of the sentence would be knocked out: the model would read nothing but &lt;sos&gt; and &lt;eos&gt;. Keep at least one word.</source>
        <translation>句子中的每个词都会被屏蔽：模型将只能读到 &lt;sos&gt; 和 &lt;eos&gt;。请至少保留一个词。</translation>
    </message>
    <message>
        <source>encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>knocked out %1</source>
        <translation>已屏蔽 %1</translation>
    </message>
    <message>
        <source>step %1 attends only to %2</source>
        <translation>第 %1 步只关注 %2</translation>
    </message>
    <message>
        <source>%1 layer %2 head %3</source>
        <translation>%1 第 %2 层第 %3 个头</translation>
    </message>
    <message>
        <source>heads off: %1</source>
        <translation>已移除的头：%1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LossPlot</name>
    <message>
        <source>training loss (batch)</source>
        <translation>训练损失（每批）</translation>
    </message>
    <message>
        <source>validation loss (epoch)</source>
        <translation>验证损失（每轮）</translation>
    </message>
    <message>
        <source>update</source>
        <translation>更新次数</translation>
    </message>
    <message>
        <source>loss (nats per token)</source>
        <translation>损失（每词元，奈特）</translation>
    </message>
    <message>
        <source>&amp;Logarithmic loss axis</source>
        <translation>损失轴取对数(&amp;L)</translation>
    </message>
    <message>
        <source>Loss curves</source>
        <translation>损失曲线</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MainWindow</name>
    <message>
        <source>The sentence is long: only its first %L1 tokens are decoded (%L2 more are left out).</source>
        <translation>句子过长：只解码前 %L1 个词元（其余 %L2 个被略去）。</translation>
    </message>
    <message numerus="yes">
        <source>%n word(s) not in the model&apos;s vocabulary (underlined) become &lt;unk&gt;.</source>
        <translation>
            <numerusform>%n 个词不在模型的词表中（带下划线），会变成 &lt;unk&gt;。</numerusform>
        </translation>
    </message>
    <message>
        <source>Forced decoding of the reference translation.</source>
        <translation>对参考译文进行强制解码。</translation>
    </message>
    <message>
        <source>Open a model (File ▸ Open, or File ▸ Model library) and type a sentence.</source>
        <translation>请打开一个模型（文件 ▸ 打开，或 文件 ▸ 模型库），然后输入一个句子。</translation>
    </message>
    <message>
        <source>Type a sentence above to see where the model looks.</source>
        <translation>在上方输入一个句子，看看模型在“看”哪里。</translation>
    </message>
    <message>
        <source>decoded in %1 ms</source>
        <translation>解码用时 %1 毫秒</translation>
    </message>
    <message>
        <source>The sentence to translate; the heatmap follows as you type. Words the model does not know are underlined.</source>
        <translation>要翻译的句子；热力图随输入实时更新。模型不认识的词会加下划线。</translation>
    </message>
    <message>
        <source>Optional: a translation to score instead of letting the model decode</source>
        <translation>可选：给出一个译文让模型打分，而不是让模型自己解码</translation>
    </message>
    <message>
        <source>When not empty, the model is forced onto this translation (teacher forcing) and the heatmap shows where it looks for each of its words.</source>
        <translation>不为空时，模型被强制沿这个译文解码（强制教学，teacher forcing），热力图显示它为译文中每个词看向源句的哪里。</translation>
    </message>
    <message>
        <source>&amp;Source:</source>
        <translation>源句(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Reference:</source>
        <translation>参考译文(&amp;R)：</translation>
    </message>
    <message>
        <source>Current step</source>
        <translation>当前解码步</translation>
    </message>
    <message>
        <source>No model is open and no sample models were found. Open one with File ▸ Open.</source>
        <translation>没有打开的模型，也没有找到示例模型。请用 文件 ▸ 打开 打开一个模型。</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>%1 — attnviz</source>
        <translation>%1 — attnviz</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Open a model first</source>
        <translation>请先打开一个模型</translation>
    </message>
    <message>
        <source>Show the model trained with %1 scoring (%2)</source>
        <translation>显示用 %1 打分函数训练的模型 (%2)</translation>
    </message>
    <message>
        <source>no model trained with %1 scoring for task %2 in %3</source>
        <translation>%3 中没有任务 %2 用 %1 打分函数训练的模型</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a model file (.safetensors)</source>
        <translation>打开模型文件 (.safetensors)</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>&amp;Export heatmap…</source>
        <translation>导出热力图(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the heatmap as PNG, SVG, PDF, CSV or JSON</source>
        <translation>将热力图保存为 PNG、SVG、PDF、CSV 或 JSON</translation>
    </message>
    <message>
        <source>&amp;Copy image</source>
        <translation>复制图像(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy the heatmap picture to the clipboard</source>
        <translation>将热力图图像复制到剪贴板</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit attnviz</source>
        <translation>退出 attnviz</translation>
    </message>
    <message>
        <source>&amp;Values in cells</source>
        <translation>在格子中显示数值(&amp;V)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Write each attention weight in its cell</source>
        <translation>在每个格子中写出注意力权重</translation>
    </message>
    <message>
        <source>&amp;Hide &lt;sos&gt;/&lt;eos&gt;</source>
        <translation>隐藏 &lt;sos&gt;/&lt;eos&gt;(&amp;H)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+H</source>
        <translation>Ctrl+Shift+H</translation>
    </message>
    <message>
        <source>Hide the &lt;sos&gt;/&lt;eos&gt; columns and the &lt;eos&gt; row</source>
        <translation>隐藏 &lt;sos&gt;/&lt;eos&gt; 列和 &lt;eos&gt; 行</translation>
    </message>
    <message>
        <source>&amp;First step</source>
        <translation>第一步(&amp;F)</translation>
    </message>
    <message>
        <source>Alt+Home</source>
        <translation>Alt+Home</translation>
    </message>
    <message>
        <source>Back to before the first decoder step (Home in the heatmap)</source>
        <translation>回到第一个解码步之前（在热力图中按 Home）</translation>
    </message>
    <message>
        <source>Step &amp;back</source>
        <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <source>One decoder step back (← in the heatmap)</source>
        <translation>后退一个解码步（在热力图中按 ←）</translation>
    </message>
    <message>
        <source>Step &amp;forward</source>
        <translation>前进一步(&amp;F)</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>One decoder step forward (→ in the heatmap)</source>
        <translation>前进一个解码步（在热力图中按 →）</translation>
    </message>
    <message>
        <source>&amp;Last step</source>
        <translation>最后一步(&amp;L)</translation>
    </message>
    <message>
        <source>Alt+End</source>
        <translation>Alt+End</translation>
    </message>
    <message>
        <source>To the end of the output (End in the heatmap)</source>
        <translation>跳到输出的末尾（在热力图中按 End）</translation>
    </message>
    <message>
        <source>Alt+P</source>
        <translation>Alt+P</translation>
    </message>
    <message>
        <source>Play the decoder step by step at the chosen speed (Space in the heatmap)</source>
        <translation>按所选速度逐步播放解码过程（在热力图中按空格）</translation>
    </message>
    <message>
        <source>Additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <source>Dot</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>Scaled dot</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>General</source>
        <translation>一般 (general)</translation>
    </message>
    <message>
        <source>Ctrl+%1</source>
        <translation>Ctrl+%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Colour map</source>
        <translation>色图(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Decoder</source>
        <translation>解码器(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Scoring function</source>
        <translation>打分函数(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard…</source>
        <translation>键盘操作(&amp;K)…</translation>
    </message>
    <message>
        <source>The stepping keys</source>
        <translation>逐步解码用的按键</translation>
    </message>
    <message>
        <source>&amp;About attnviz</source>
        <translation>关于 attnviz(&amp;A)</translation>
    </message>
    <message>
        <source>What attnviz is</source>
        <translation>attnviz 是什么</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>The Qt library&apos;s about box</source>
        <translation>Qt 库的“关于”对话框</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Stepping</source>
        <translation>逐步解码</translation>
    </message>
    <message>
        <source> steps/s</source>
        <translation> 步/秒</translation>
    </message>
    <message>
        <source>Playing speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <source>Scoring</source>
        <translation>打分函数</translation>
    </message>
    <message>
        <source> Scoring: </source>
        <translation> 打分函数：</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Colour map</source>
        <translation>色图</translation>
    </message>
    <message>
        <source>The colours of the heatmap</source>
        <translation>热力图的配色</translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>Type a sentence first: there is no heatmap to export.</source>
        <translation>请先输入一个句子：现在还没有可导出的热力图。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1.

%2</source>
        <translation>无法写入 %1。

%2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Heatmap copied to the clipboard</source>
        <translation>热力图已复制到剪贴板</translation>
    </message>
    <message>
        <source>Keyboard</source>
        <translation>键盘操作</translation>
    </message>
    <message>
        <source>&lt;p&gt;In the heatmap or the step panel (click it first):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;← / → : one decoder step back / forward&lt;/li&gt;&lt;li&gt;Home / End : before the first / after the last step&lt;/li&gt;&lt;li&gt;Space : play / pause&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Everywhere (the text fields keep their own arrow keys): Alt+← / Alt+→, Alt+Home / Alt+End, Alt+P.&lt;/p&gt;&lt;p&gt;Scoring function: Ctrl+1 additive, Ctrl+2 dot, Ctrl+3 scaled dot, Ctrl+4 general.&lt;/p&gt;&lt;p&gt;In the source field, Tab moves on; when completions show, Enter or Tab takes one.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在热力图或当前解码步面板中（先点击它）：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;← / →：后退 / 前进一个解码步&lt;/li&gt;&lt;li&gt;Home / End：回到第一步之前 / 跳到最后一步之后&lt;/li&gt;&lt;li&gt;空格：播放 / 暂停&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;任何位置（文本框保留自己的方向键）：Alt+← / Alt+→、Alt+Home / Alt+End、Alt+P。&lt;/p&gt;&lt;p&gt;打分函数：Ctrl+1 加性，Ctrl+2 点积，Ctrl+3 缩放点积，Ctrl+4 一般 (general)。&lt;/p&gt;&lt;p&gt;在源句输入框中，Tab 移到下一个控件；出现补全列表时，按 Enter 或 Tab 选取一项。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About attnviz</source>
        <translation>关于 attnviz</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>跟随系统 (%1)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>%1 differs in more: %2</source>
        <translation>%1 还有更多不同：%2</translation>
    </message>
    <message>
        <source>no model trained with %1 scoring and this model&apos;s other settings for task %2 in %3 (%4; see Siblings)</source>
        <translation>%3 中没有任务 %2 用 %1 打分函数训练、其他设置与本模型相同的模型（%4；见“同组模型”）</translation>
    </message>
    <message numerus="yes">
        <source>%n word(s) of the reference not in the model&apos;s output vocabulary (underlined) become &lt;unk&gt;.</source>
        <translation>
            <numerusform>参考译文中有 %n 个词不在模型的输出词表中（已加下划线），将变为 &lt;unk&gt;。</numerusform>
        </translation>
    </message>
    <message>
        <source>Model: %1 (%2 decoder, %3 scoring)</source>
        <translation>模型：%1（%2 解码器，%3 打分函数）</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo: %1</source>
        <translation>撤销(&amp;U)：%1</translation>
    </message>
    <message>
        <source>&amp;Redo: %1</source>
        <translation>重做(&amp;R)：%1</translation>
    </message>
    <message>
        <source>C&amp;lear forced tokens</source>
        <translation>清除强制词元(&amp;L)</translation>
    </message>
    <message>
        <source>Forget every forced &quot;what if?&quot; token: the model&apos;s own output again</source>
        <translation>清除所有强制的“如果……会怎样？”词元：回到模型自己的输出</translation>
    </message>
    <message>
        <source>Writing “%1”, the model gives “%2” %3 % of its attention.</source>
        <translation>输出“%1”时，模型把 %3% 的注意力给了“%2”。</translation>
    </message>
    <message>
        <source>You forced “%1” here.</source>
        <translation>“%1”是你在这里强制的。</translation>
    </message>
    <message>
        <source>“%1” is not in the model&apos;s vocabulary: it reads &lt;unk&gt;.</source>
        <translation>“%1”不在模型的词表中：模型读到的是 &lt;unk&gt;。</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>Compare models</source>
        <translation>比较模型</translation>
    </message>
    <message>
        <source>Cell inspector</source>
        <translation>单元格检查器</translation>
    </message>
    <message>
        <source>C&amp;overage and entropy</source>
        <translation>覆盖度与熵(&amp;O)</translation>
    </message>
    <message>
        <source>Under the heatmap, how much attention each source word received in all (blue: neglected, red: over-attended); at its right, each row&apos;s entropy against a uniform row (orange: diffuse)</source>
        <translation>热力图下方：每个源词共获得多少注意力（蓝色：被忽略，红色：过度关注）；右侧：每行的熵与均匀分布之比（橙色：分散）</translation>
    </message>
    <message>
        <source>How focused and complete the attention of this sentence is (0 is best; the sum of the first three):
coverage deviation penalty %1 (words read more or less than once)
absentmindedness of the output %2 (rows spread over many words)
absentmindedness of the input %3 (words looked at from many steps)
GNMT coverage penalty %4</source>
        <translation>本句注意力的集中与完整程度（0 为最佳，为前三项之和）：
覆盖偏差惩罚 %1（词被读了多于或少于一次）
输出的注意力涣散 %2（一行分散在许多词上）
输入的注意力涣散 %3（一个词被许多步关注）
GNMT 覆盖惩罚 %4</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>Open &amp;corpus…</source>
        <translation>打开语料(&amp;C)…</translation>
    </message>
    <message>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <source>Open a TSV corpus in the corpus browser: every line scored, click one to see it</source>
        <translation>在语料浏览器中打开 TSV 语料：每一行都会打分，点击一行即可查看</translation>
    </message>
    <message>
        <source>Cannot open the corpus</source>
        <translation>无法打开语料</translation>
    </message>
    <message>
        <source>&amp;Train a model…</source>
        <translation>训练模型(&amp;T)…</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>Train a model on a corpus and watch its attention learn</source>
        <translation>在语料上训练模型，看它的注意力如何学会对齐</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Masked: a position does not see later ones.</source>
        <translation>已屏蔽：一个位置看不到它后面的位置。</translation>
    </message>
    <message>
        <source>In the %4, “%1” gives “%2” %3 % of its attention.</source>
        <translation>在%4中，“%1”把 %3% 的注意力给了“%2”。</translation>
    </message>
    <message>
        <source>Heatmap: %1 — %2</source>
        <translation>热力图：%1 — %2</translation>
    </message>
    <message>
        <source>Attention heads ▸ Default view returns to the model&apos;s attention</source>
        <translation>注意力头 ▸ 默认视图 可回到模型的注意力</translation>
    </message>
    <message>
        <source>Could not explain: %1</source>
        <translation>无法解释：%1</translation>
    </message>
    <message>
        <source> Explain by: </source>
        <translation> 解释方法： </translation>
    </message>
    <message>
        <source>What the heatmap shows: the model&apos;s attention, or what the model used by another method</source>
        <translation>热图显示的内容：模型的注意力，或用其他方法得出的模型实际依赖</translation>
    </message>
    <message>
        <source>E&amp;xplain by</source>
        <translation>解释方法(&amp;X)</translation>
    </message>
    <message>
        <source>Heatmap: %1 — computing… (the attention is shown until then)</source>
        <translation>热图：%1 — 计算中…（在此之前显示注意力）</translation>
    </message>
    <message>
        <source>Heatmap: %1 — red: raised log p of the row&apos;s token, blue: lowered it</source>
        <translation>热图：%1 — 红色：提高了该行词的 log p，蓝色：降低了它</translation>
    </message>
    <message>
        <source>Heatmap: %1 — rows: output tokens, columns: source tokens</source>
        <translation>热图：%1 — 行：输出词，列：源词</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>%1, why “%2” and not “%3” at step %4</source>
        <translation>%1，第 %4 步为何是“%2”而不是“%3”</translation>
    </message>
    <message>
        <source>Which explanation is right?</source>
        <translation>哪种解释是对的？</translation>
    </message>
    <message>
        <source>%1 was dropped: %2</source>
        <translation>%1 已被丢弃：%2</translation>
    </message>
    <message>
        <source>The interventions were not made, the plain model is shown: %1</source>
        <translation>未施加干预，显示的是原始模型：%1</translation>
    </message>
    <message>
        <source>Interventions</source>
        <translation>干预</translation>
    </message>
    <message>
        <source>No line of %1 has a reference to score the translations against.</source>
        <translation>%1 中没有任何一行带有可用于评分译文的参考译文。</translation>
    </message>
    <message>
        <source>Open a corpus with references (File ▸ Open corpus): this model names no task whose sample test split could stand in.</source>
        <translation>请打开带参考译文的语料（文件 ▸ 打开语料）：此模型未注明任务，无法用示例测试集代替。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Open a corpus with references (File ▸ Open corpus), or generate the sample corpora (sample_models/build.sh): the %1 test split was not found.</source>
        <translation>请打开带参考译文的语料（文件 ▸ 打开语料），或生成示例语料（sample_models/build.sh）：未找到 %1 测试集。</translation>
    </message>
    <message>
        <source>Head importance</source>
        <translation>注意力头重要性</translation>
    </message>
    <message>
        <source>%1 sample test split</source>
        <translation>%1 示例测试集</translation>
    </message>
    <message>
        <source>d_model %1, %2 heads, %3 encoder and %4 decoder layers, feed-forward %5</source>
        <translation>d_model %1，%2 个头，%3 层编码器和 %4 层解码器，前馈层 %5</translation>
    </message>
    <message>
        <source>d_model %1; encoder: %2 layers, %3 heads, feed-forward %4; decoder: %5 layers, %6 heads, feed-forward %7</source>
        <translation>d_model %1；编码器：%2 层，%3 个头，前馈层 %4；解码器：%5 层，%6 个头，前馈层 %7</translation>
    </message>
    <message>
        <source>Embedding size %1; hidden size %2 (encoder), %3 (decoder)</source>
        <translation>词嵌入维度 %1；隐藏层维度 %2（编码器）、%3（解码器）</translation>
    </message>
    <message>
        <source>%1
%2
Vocabularies: %L3 source and %L4 output tokens; %5 k parameters</source>
        <translation>%1
%2
词表：%L3 个源词元和 %L4 个输出词元；%5 k 个参数</translation>
    </message>
    <message>
        <source>The corpus line&apos;s reference and gold links were cleared: the sentence is no longer that line&apos;s</source>
        <translation>已清除语料行的参考译文和金标准对齐：这个句子已不再是那一行的句子</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>入门指南(&amp;G)</translation>
    </message>
    <message>
        <source>What the heatmap shows and what to try first</source>
        <translation>热力图显示什么，先试些什么</translation>
    </message>
    <message>
        <source>RdBu (signed values: red raises, blue lowers)</source>
        <translation>RdBu（有正负的值：红色提高，蓝色降低）</translation>
    </message>
    <message>
        <source>Colour map: the explanation shown has signed values, drawn on the red–blue diverging map; the map chosen here colours the attention</source>
        <translation>色图：当前显示的解释有正负之分，用红蓝发散色图绘制；这里选的色图用于注意力</translation>
    </message>
    <message>
        <source>attention confidence %1 (0 is best)</source>
        <translation>注意力置信度 %1（0 为最佳）</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>&amp;Compare models</source>
        <translation>比较模型(&amp;C)</translation>
    </message>
    <message>
        <source>Two models side by side on this sentence, in a tab beside the heatmap</source>
        <translation>两个模型并排处理这个句子，显示在热力图旁边的标签页中</translation>
    </message>
    <message>
        <source>Explanation cancelled: the heatmap shows the attention.</source>
        <translation>已取消解释：热图显示注意力。</translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation>打开模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open a Hugging Face Marian (opus-mt) folder: one with config.json</source>
        <translation>打开 Hugging Face Marian（opus-mt）文件夹：含 config.json 的文件夹</translation>
    </message>
    <message>
        <source>&amp;Pieces</source>
        <translation>子词(&amp;P)</translation>
    </message>
    <message>
        <source>Show the SentencePiece pieces the model reads and writes (▁ starts a word)</source>
        <translation>显示模型读写的 SentencePiece 子词（▁ 表示词首）</translation>
    </message>
    <message>
        <source>&amp;Words</source>
        <translation>词(&amp;W)</translation>
    </message>
    <message>
        <source>Show words: a word&apos;s columns summed, its rows averaged (the steps stay pieces)</source>
        <translation>按词显示：一个词的各列相加、各行取平均（步骤仍按子词）</translation>
    </message>
    <message>
        <source>Ctrl+Shift+W</source>
        <translation>Ctrl+Shift+W</translation>
    </message>
    <message>
        <source>Pieces and words are for SentencePiece models (Hugging Face Marian folders)</source>
        <translation>子词与词的切换只适用于 SentencePiece 模型（Hugging Face Marian 文件夹）</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>Words: a word&apos;s columns are summed, its rows averaged. The steps, the step panel, forcing and interventions count pieces.</source>
        <translation>词：一个词的各列相加、各行取平均。步骤、步骤面板、强制与干预仍按子词计数。</translation>
    </message>
    <message>
        <source>The target&apos;s pieces rarely start with ▁ (as in Chinese), so its words are clause-sized chunks: Pieces shows them one by one.</source>
        <translation>目标语言的子词很少以 ▁ 开头（如中文），所以它的“词”是分句大小的片段：选“子词”可逐个查看。</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>模型库(&amp;L)…</translation>
    </message>
    <message>
        <source>Browse the sample models by task and the Hugging Face cache&apos;s Marian models</source>
        <translation>按任务浏览示例模型，以及 Hugging Face 缓存中的 Marian 模型</translation>
    </message>
    <message>
        <source>attnviz models (*.safetensors);;Hugging Face Marian folders (config.json);;All files (*)</source>
        <translation>attnviz 模型 (*.safetensors);;Hugging Face Marian 文件夹 (config.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MarianFields</name>
    <message>
        <source>SentencePiece pieces:</source>
        <translation>SentencePiece 子词数：</translation>
    </message>
    <message>
        <source>Languages:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源语言</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标语言</translation>
    </message>
    <message>
        <source>The size of each side&apos;s SentencePiece model, trained on the corpus when training starts (its 3 special pieces included); the two share one vocabulary. A corpus too small for a size is refused with the size it allows</source>
        <translation>两侧各自 SentencePiece 模型的大小（含 3 个特殊子词），开始训练时在语料上训练；两者共用一个词表。语料太小、不够这个大小时会被拒绝，并给出它允许的大小</translation>
    </message>
    <message>
        <source>e.g. en</source>
        <translation>例如 en</translation>
    </message>
    <message>
        <source>e.g. zh</source>
        <translation>例如 zh</translation>
    </message>
    <message>
        <source>The languages&apos; codes, recorded in the folder&apos;s tokenizer_config.json (may be empty)</source>
        <translation>语言代码，记录在文件夹的 tokenizer_config.json 中（可以为空）</translation>
    </message>
    <message>
        <source>Character coverage:</source>
        <translation>字符覆盖率：</translation>
    </message>
    <message>
        <source>The share of each side&apos;s characters (by count) that get pieces of their own: 1 keeps every character; below it the rarest become &lt;unk&gt;, and a side needs fewer pieces. SentencePiece advises 0.9995 for Chinese or Japanese</source>
        <translation>每一侧的字符（按出现次数计）中有多大比例获得自己的子词：1 保留每个字符；低于 1 时最罕见的字符变成 &lt;unk&gt;，该侧所需的子词也更少。SentencePiece 建议中文或日文用 0.9995</translation>
    </message>
    <message>
        <source>Normalization:</source>
        <translation>规范化：</translation>
    </message>
    <message>
        <source>How each side&apos;s SentencePiece model normalizes text, in training and whenever it reads text: nmt_nfkc (as opus-mt models) and nfkc turn full-width punctuation into ASCII (&quot;，&quot; into &quot;,&quot;); the _cf rules also fold case; identity changes nothing but spaces, so a Chinese or Japanese target keeps its own punctuation</source>
        <translation>每一侧的 SentencePiece 模型如何规范化文本（训练时和每次读入文本时）：nmt_nfkc（与 opus-mt 模型相同）和 nfkc 会把全角标点变成 ASCII（&quot;，&quot; 变成 &quot;,&quot;）；带 _cf 的规则还会统一大小写；identity 除空格外不做任何改变，因此中文或日文目标语言保留自己的标点</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelLibraryDialog</name>
    <message>
        <source>Task / model</source>
        <translation>任务 / 模型</translation>
    </message>
    <message>
        <source>Decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>打分函数</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>(no task)</source>
        <translation>（无任务）</translation>
    </message>
    <message>
        <source>(no models here)</source>
        <translation>（此处没有模型）</translation>
    </message>
    <message>
        <source>No sample model folder found (set ATTNVIZ_SAMPLE_MODELS to one).</source>
        <translation>没有找到示例模型文件夹（可以用 ATTNVIZ_SAMPLE_MODELS 指定一个）。</translation>
    </message>
    <message>
        <source>%1, V %2/%3</source>
        <translation>%1，V %2/%3</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>模型库</translation>
    </message>
    <message>
        <source>Hugging Face cache: %1</source>
        <translation>Hugging Face 缓存：%1</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Marian</source>
        <translation>Marian</translation>
    </message>
    <message>
        <source>(no Marian models here: see docs/marian.md for getting one)</source>
        <translation>（这里没有 Marian 模型：获取方法见 docs/marian.md）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelNames</name>
    <message>
        <source>Bahdanau (RNN)</source>
        <translation>Bahdanau（循环神经网络）</translation>
    </message>
    <message>
        <source>Luong (RNN)</source>
        <translation>Luong（循环神经网络）</translation>
    </message>
    <message>
        <source>Transformer</source>
        <translation>Transformer</translation>
    </message>
    <message>
        <source>additive</source>
        <translation>加性</translation>
    </message>
    <message>
        <source>dot</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>scaled dot</source>
        <translation>缩放点积</translation>
    </message>
    <message>
        <source>general</source>
        <translation>一般 (general)</translation>
    </message>
    <message>
        <source>local-m (monotonic)</source>
        <translation>局部 local-m（单调）</translation>
    </message>
    <message>
        <source>local-p (predictive)</source>
        <translation>局部 local-p（预测）</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>word</source>
        <translation>按词</translation>
    </message>
    <message>
        <source>char</source>
        <translation>按字符</translation>
    </message>
    <message>
        <source>whitespace</source>
        <translation>按空格</translation>
    </message>
    <message>
        <source>%1, D = %2</source>
        <translation>%1，D = %2</translation>
    </message>
    <message>
        <source>input feeding</source>
        <translation>输入馈送</translation>
    </message>
    <message>
        <source>no input feeding</source>
        <translation>无输入馈送</translation>
    </message>
    <message>
        <source>guided</source>
        <translation>有对齐引导</translation>
    </message>
    <message>
        <source>unguided</source>
        <translation>无对齐引导</translation>
    </message>
    <message>
        <source>tokenizer %1 → %2, %3</source>
        <translation>分词 %1 → %2，%3</translation>
    </message>
    <message>
        <source>lowercase</source>
        <translation>小写</translation>
    </message>
    <message>
        <source>cased</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>other settings</source>
        <translation>其他设置</translation>
    </message>
    <message>
        <source>same settings</source>
        <translation>设置相同</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::OutputLine</name>
    <message>
        <source>&lt;b&gt;Output:&lt;/b&gt; </source>
        <translation>&lt;b&gt;输出：&lt;/b&gt; </translation>
    </message>
    <message>
        <source>Against the plain model&apos;s output: overlined (blue) = changed, the plain token in brackets; + (green) = added; struck through (vermillion) = dropped.</source>
        <translation>与原始模型的输出相比：上划线（蓝色）= 改变，括号中是原始词元；+（绿色）= 新增；删除线（朱红色）= 丢失。</translation>
    </message>
    <message>
        <source>The translation as text (the pieces joined and detokenized); the heatmap and the step panel show the pieces the model produced.</source>
        <translation>译文文本（子词拼接后还原）；热图和步骤面板显示模型生成的子词。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ReferenceFold</name>
    <message>
        <source>No reference: the model decodes by itself.</source>
        <translation>没有参考译文：模型自行解码。</translation>
    </message>
    <message>
        <source>The model is forced onto the reference “%1”.</source>
        <translation>模型被强制沿参考译文“%1”解码。</translation>
    </message>
    <message>
        <source>Gold links: AER %1.</source>
        <translation>金标准对齐：AER %1。</translation>
    </message>
    <message>
        <source>Gold links are typed.</source>
        <translation>已输入金标准对齐。</translation>
    </message>
    <message>
        <source>Reference (forced)</source>
        <translation>参考译文（强制）</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考译文</translation>
    </message>
    <message>
        <source>%1
Click to show the reference and gold links fields.</source>
        <translation>%1
点击显示参考译文和金标准对齐输入框。</translation>
    </message>
    <message>
        <source>Fold the reference and gold links fields away.</source>
        <translation>收起参考译文和金标准对齐输入框。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SiblingsMenu</name>
    <message>
        <source>S&amp;iblings</source>
        <translation>同组模型(&amp;I)</translation>
    </message>
    <message>
        <source>%1 — this model</source>
        <translation>%1 — 当前模型</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>(no model open)</source>
        <translation>（未打开模型）</translation>
    </message>
    <message>
        <source>The open model</source>
        <translation>当前打开的模型</translation>
    </message>
    <message>
        <source>Open this sibling, keeping the sentence and the step</source>
        <translation>打开这个同组模型，保留句子和当前解码步</translation>
    </message>
    <message>
        <source>(no other model in this folder has its task and vocabularies)</source>
        <translation>（此文件夹中没有其他模型与它的任务和词表相同）</translation>
    </message>
    <message>
        <source>(the model has no task metadata, so it has no siblings)</source>
        <translation>（模型没有任务元数据，因此没有同组模型）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SourceEditor</name>
    <message>
        <source>Type a sentence in the source language…</source>
        <translation>用源语言输入一个句子…</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not in the model&apos;s vocabulary: it becomes &lt;unk&gt;</source>
        <translation>“%1”不在模型的词表中：它会变成 &lt;unk&gt;</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::StepPanel</name>
    <message>
        <source>No step yet.</source>
        <translation>还没有解码步。</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>-Σ a log a over the row: 0 when all attention is on one source token, ln S when it is spread evenly</source>
        <translation>对这一行求 -Σ a log a：全部注意力集中在一个源词元上时为 0，均匀分布时为 ln S</translation>
    </message>
    <message>
        <source>Candidates (click to force):</source>
        <translation>候选词元（点击以强制选用）：</translation>
    </message>
    <message>
        <source>Before the first step: press → (or Alt+→) to decode the first token.</source>
        <translation>第一步之前：按 →（或 Alt+→）解码第一个词元。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1 of %2&lt;/b&gt;: “%3”, p = %4%5</source>
        <translation>&lt;b&gt;第 %1 步，共 %2 步&lt;/b&gt;：“%3”，p = %4%5</translation>
    </message>
    <message>
        <source> &lt;i&gt;(forced)&lt;/i&gt;</source>
        <translation> &lt;i&gt;（强制）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>The token produced at this step</source>
        <translation>这一步生成的词元</translation>
    </message>
    <message>
        <source>Force this token here and decode on from it</source>
        <translation>在这里强制选用这个词元，并从它继续解码</translation>
    </message>
    <message>
        <source>Entropy: %1 nats (uniform: %2)</source>
        <translation>熵：%1 奈特（均匀分布：%2）</translation>
    </message>
    <message>
        <source>Click a candidate to force it at this step and decode on from there (&quot;what if?&quot;); right-click it to ask why the model chose its token and not this one</source>
        <translation>点击候选词可在这一步强制使用它并由此继续解码（“如果……会怎样？”）；右键点击可询问模型为何选了自己的词元而不是这个</translation>
    </message>
    <message>
        <source>Integrated gradients&apos; completeness: the row&apos;s sum should equal log p of its token with the sentence minus log p with every source embedding at 0; the gap shows how far 32 steps are from the integral</source>
        <translation>积分梯度的完备性：该行之和应等于有句子时其词元的 log p 减去所有源嵌入为 0 时的 log p；差距表示 32 步离精确积分还有多远</translation>
    </message>
    <message>
        <source>&lt;br&gt;Why this and not “%1”?</source>
        <translation>&lt;br&gt;为何是这个而不是“%1”？</translation>
    </message>
    <message>
        <source>Completeness gap: %1 (Σ = %2, f(x) − f(0) = %3, %4 %)</source>
        <translation>完备性差距：%1（Σ = %2，f(x) − f(0) = %3，%4 %）</translation>
    </message>
    <message>
        <source>Why “%1” and not “%2”?</source>
        <translation>为何是“%1”而不是“%2”？</translation>
    </message>
    <message>
        <source>Shows what made the model prefer its token over this one at this step (a contrastive explanation)</source>
        <translation>显示在这一步是什么让模型选择自己的词元而不是这个（对比解释）</translation>
    </message>
    <message>
        <source>Explain the token alone (no contrast)</source>
        <translation>只解释该词元（不对比）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 %3</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;%1: computing…&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;%1：计算中…&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::TrainingForm</name>
    <message>
        <source>Continue from a model</source>
        <translation>在已有模型上继续训练</translation>
    </message>
    <message>
        <source>attnviz models (*.safetensors)</source>
        <translation>attnviz 模型 (*.safetensors)</translation>
    </message>
    <message>
        <source>Validation:</source>
        <translation>验证集：</translation>
    </message>
    <message>
        <source>Lines used:</source>
        <translation>使用行数：</translation>
    </message>
    <message>
        <source>Task name:</source>
        <translation>任务名称：</translation>
    </message>
    <message>
        <source>Continue from:</source>
        <translation>继续训练自：</translation>
    </message>
    <message>
        <source>Scoring function:</source>
        <translation>打分函数：</translation>
    </message>
    <message>
        <source>Attention span:</source>
        <translation>注意力范围：</translation>
    </message>
    <message>
        <source>Source tokens:</source>
        <translation>源语言切分：</translation>
    </message>
    <message>
        <source>Target tokens:</source>
        <translation>目标语言切分：</translation>
    </message>
    <message>
        <source>Embedding size:</source>
        <translation>词嵌入维度：</translation>
    </message>
    <message>
        <source>Encoder hidden size:</source>
        <translation>编码器隐藏层维度：</translation>
    </message>
    <message>
        <source>Decoder hidden size:</source>
        <translation>解码器隐藏层维度：</translation>
    </message>
    <message>
        <source>Minimum frequency:</source>
        <translation>最低词频：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Batch size:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>训练轮数：</translation>
    </message>
    <message>
        <source>Gradient clipping:</source>
        <translation>梯度裁剪：</translation>
    </message>
    <message>
        <source>Dropout:</source>
        <translation>Dropout：</translation>
    </message>
    <message>
        <source>Guidance weight:</source>
        <translation>对齐引导权重：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Snapshot every:</source>
        <translation>快照间隔：</translation>
    </message>
    <message>
        <source>Probe sentence:</source>
        <translation>观察句子：</translation>
    </message>
    <message>
        <source>Its translation:</source>
        <translation>其译文：</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>模型文件：</translation>
    </message>
    <message>
        <source>&amp;Corpus:</source>
        <translation>语料(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Any UTF-8 TSV file: source&lt;TAB&gt;target, optionally &lt;TAB&gt;gold links (i-j …)</source>
        <translation>任意 UTF-8 TSV 文件：源句&lt;TAB&gt;目标句，可再加 &lt;TAB&gt;金标准对齐（i-j …）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>a new model</source>
        <translation>新模型</translation>
    </message>
    <message>
        <source>A model file to continue training (its kind, sizes and vocabularies are kept)</source>
        <translation>在这个模型文件的基础上继续训练（保留其类型、尺寸和词表）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Input feeding (luong)</source>
        <translation>输入馈送（luong）</translation>
    </message>
    <message>
        <source>Lower-case the text</source>
        <translation>文本转为小写</translation>
    </message>
    <message>
        <source>Guided alignment: this weight times the cross-entropy between the attention and the corpus&apos;s gold links (0: the attention learns by itself)</source>
        <translation>引导对齐：把注意力与语料金标准对齐之间的交叉熵乘以此权重加入损失（0：注意力自行学习）</translation>
    </message>
    <message>
        <source> updates</source>
        <translation> 次更新</translation>
    </message>
    <message>
        <source>The sentence whose attention is shown while the model learns</source>
        <translation>模型学习期间显示其注意力的句子</translation>
    </message>
    <message>
        <source>none: the model&apos;s own output</source>
        <translation>无：用模型自己的输出</translation>
    </message>
    <message>
        <source>The model is forced onto this translation in every snapshot, so that the rows stay the same while the attention changes</source>
        <translation>每个快照都把模型强制到这个译文上，行保持不变，只有注意力在变化</translation>
    </message>
    <message>
        <source>Written at every pause and when training ends (atomically: never half a file)</source>
        <translation>每次暂停和训练结束时写入（原子写入：绝不会留下半个文件）</translation>
    </message>
    <message>
        <source>Training corpus</source>
        <translation>训练语料</translation>
    </message>
    <message>
        <source>Tab-separated corpora (*.tsv *.txt);;All files (*)</source>
        <translation>制表符分隔的语料 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Model kind:</source>
        <translation>模型类型：</translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <source>The learning rate grows linearly to its value over this many updates, then stays (Transformers need it to start well)</source>
        <translation>学习率在这么多次更新中线性增长到设定值，之后保持不变（Transformer 需要它才能顺利起步）</translation>
    </message>
    <message>
        <source>RNN kinds: dropout on the embeddings; Transformer: nn.Transformer&apos;s dropout sites and after the embeddings with positions</source>
        <translation>RNN 类型：作用于词嵌入的 dropout；Transformer：nn.Transformer 的各个 dropout 位置，以及加上位置编码后的词嵌入之后</translation>
    </message>
    <message>
        <source>bahdanau and luong: RNN encoder-decoders with one attention; transformer: self-attention and multi-head attention in every layer; Marian: a Transformer in the layout of Hugging Face&apos;s opus-mt models, on SentencePiece pieces trained on the corpus, saved as a folder</source>
        <translation>bahdanau 和 luong：只有一个注意力的 RNN 编码器-解码器；transformer：每一层都有自注意力和多头注意力；Marian：Hugging Face opus-mt 模型布局的 Transformer，使用在语料上训练的 SentencePiece 子词，保存为文件夹</translation>
    </message>
    <message>
        <source>Marian (Hugging Face layout, SentencePiece)</source>
        <translation>Marian（Hugging Face 布局，SentencePiece）</translation>
    </message>
    <message>
        <source>Model folder:</source>
        <translation>模型文件夹：</translation>
    </message>
    <message>
        <source>A Hugging Face Marian folder, written at every pause and when training ends (whole or not at all); a folder that is not empty is replaced only when you agree</source>
        <translation>Hugging Face Marian 文件夹，每次暂停和训练结束时写入（要么完整，要么不写）；非空的文件夹只有在你同意后才会被替换</translation>
    </message>
    <message>
        <source>After the warm-up:</source>
        <translation>预热之后：</translation>
    </message>
    <message>
        <source>Label smoothing:</source>
        <translation>标签平滑：</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>保持不变</translation>
    </message>
    <message>
        <source>decays as 1/√update</source>
        <translation>按 1/√更新次数 衰减</translation>
    </message>
    <message>
        <source>Inverse square root: the rate at update u is lr × √(warm-up / u) after the warm-up</source>
        <translation>平方根倒数衰减：预热之后，第 u 次更新的学习率为 lr × √(预热次数 / u)</translation>
    </message>
    <message>
        <source>Train towards 1 − ε on the next token and ε spread over every output; the curves still show the plain loss</source>
        <translation>训练目标：下一个词元占 1 − ε，其余 ε 平均分给每个输出词元；曲线仍显示普通损失</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::TrainingWindow</name>
    <message>
        <source>update %1</source>
        <translation>第 %1 次更新</translation>
    </message>
    <message>
        <source>attention while training</source>
        <translation>训练过程中的注意力</translation>
    </message>
    <message>
        <source>Train a model — attnviz</source>
        <translation>训练模型 — attnviz</translation>
    </message>
    <message>
        <source>&amp;Start training</source>
        <translation>开始训练(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop after the current update and write the model</source>
        <translation>当前这次更新完成后停止，并写入模型</translation>
    </message>
    <message>
        <source>S&amp;napshot:</source>
        <translation>快照(&amp;N)：</translation>
    </message>
    <message>
        <source>Scrub back through the probe sentence&apos;s attention as the model learnt it</source>
        <translation>来回拖动，查看模型学习过程中观察句子的注意力</translation>
    </message>
    <message>
        <source>Export &amp;filmstrip…</source>
        <translation>导出胶片图(&amp;F)…</translation>
    </message>
    <message>
        <source>The snapshots in a grid, each with its update number (PNG, SVG or PDF)</source>
        <translation>把快照排成网格，每个标出其更新次数（PNG、SVG 或 PDF）</translation>
    </message>
    <message>
        <source>Export &amp;curves…</source>
        <translation>导出曲线(&amp;C)…</translation>
    </message>
    <message>
        <source>The loss curves as a PNG picture or their numbers as CSV</source>
        <translation>把损失曲线导出为 PNG 图片，或把其数值导出为 CSV</translation>
    </message>
    <message>
        <source>&amp;Open in the main window</source>
        <translation>在主窗口中打开(&amp;O)</translation>
    </message>
    <message>
        <source>Save as &amp;sibling…</source>
        <translation>另存为同组模型(&amp;S)…</translation>
    </message>
    <message>
        <source>Save beside the models of the same task, so that the scoring buttons reach it</source>
        <translation>保存到同一任务的模型旁边，让打分函数按钮能切换到它</translation>
    </message>
    <message>
        <source>Choose a corpus and the model&apos;s settings, then start.</source>
        <translation>选择语料和模型设置，然后开始训练。</translation>
    </message>
    <message>
        <source>A training is running.</source>
        <translation>训练正在进行。</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>无法开始：%1</translation>
    </message>
    <message numerus="yes">
        <source>Training on %n line(s)…</source>
        <translation>
            <numerusform>正在 %n 行语料上训练…</numerusform>
        </translation>
    </message>
    <message>
        <source>Training the SentencePiece models on %1…</source>
        <translation>正在用 %1 训练 SentencePiece 模型…</translation>
    </message>
    <message>
        <source>Reading %1 and making the model…</source>
        <translation>正在读取 %1 并构建模型…</translation>
    </message>
    <message>
        <source>Pausing after the current update…</source>
        <translation>当前这次更新完成后暂停…</translation>
    </message>
    <message>
        <source>Stopping after the current update…</source>
        <translation>当前这次更新完成后停止…</translation>
    </message>
    <message>
        <source>update %1 of %2 · epoch %3 · loss %4 · %5 tokens/s · %6 left</source>
        <translation>第 %1/%2 次更新 · 第 %3 轮 · 损失 %4 · 每秒 %5 个词元 · 还需 %6</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>尚无快照</translation>
    </message>
    <message>
        <source>update %1 (%2 of %3)</source>
        <translation>第 %1 次更新（快照 %2/%3）</translation>
    </message>
    <message>
        <source>Paused after update %1; the model so far is in %2</source>
        <translation>已在第 %1 次更新后暂停；目前的模型保存在 %2</translation>
    </message>
    <message>
        <source>Paused after update %1; the model could not be written: %2</source>
        <translation>已在第 %1 次更新后暂停；无法写入模型：%2</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>Trained %1 updates in %2 (%3 tokens/s)</source>
        <translation>用时 %2 完成 %1 次更新（每秒 %3 个词元）</translation>
    </message>
    <message>
        <source>Stopped after %1 updates</source>
        <translation>在第 %1 次更新后停止</translation>
    </message>
    <message>
        <source>No trained model yet.</source>
        <translation>还没有训练好的模型。</translation>
    </message>
    <message>
        <source>Export filmstrip</source>
        <translation>导出胶片图</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>图片 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Export loss curves</source>
        <translation>导出损失曲线</translation>
    </message>
    <message>
        <source>Save as sibling</source>
        <translation>另存为同组模型</translation>
    </message>
    <message>
        <source>Models (*.safetensors)</source>
        <translation>模型 (*.safetensors)</translation>
    </message>
    <message>
        <source>Train four s&amp;iblings…</source>
        <translation>训练四个同组模型(&amp;I)…</translation>
    </message>
    <message>
        <source>Train the additive, dot, scaled_dot and general scorings one after the other with these settings, save them side by side in a folder and compare them in the main window</source>
        <translation>用这些设置依次训练 additive、dot、scaled_dot 和 general 四种打分函数，将它们并排保存在一个文件夹中，并在主窗口中对比</translation>
    </message>
    <message>
        <source>Export &amp;animation…</source>
        <translation>导出动画(&amp;A)…</translation>
    </message>
    <message>
        <source>The snapshots as an animated PNG for slides, one frame per snapshot</source>
        <translation>把快照导出为可放进幻灯片的动态 PNG，每个快照一帧</translation>
    </message>
    <message>
        <source>Frame &amp;delay:</source>
        <translation>帧间隔(&amp;D)：</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>How long the animation shows each snapshot</source>
        <translation>动画中每个快照显示多长时间</translation>
    </message>
    <message>
        <source>Export animation</source>
        <translation>导出动画</translation>
    </message>
    <message>
        <source>Animated PNG (*.png *.apng)</source>
        <translation>动态 PNG (*.png *.apng)</translation>
    </message>
    <message>
        <source>sibling %1 of %2 (%3): </source>
        <translation>同组模型 %1/%2（%3）：</translation>
    </message>
    <message>
        <source>The siblings stopped: the %1 one failed (%2); %3 of %4 trained and kept</source>
        <translation>同组训练已停止：%1 模型训练失败（%2）；%4 个中已训练并保留 %3 个</translation>
    </message>
    <message>
        <source>The siblings stopped during the %1 one (its model so far is in %2); %3 of %4 trained and kept</source>
        <translation>同组训练在 %1 模型处停止（它目前的模型保存在 %2）；%4 个中已训练并保留 %3 个</translation>
    </message>
    <message>
        <source>The siblings stopped: the %1 one cannot start (%2)</source>
        <translation>同组训练已停止：%1 模型无法开始（%2）</translation>
    </message>
    <message>
        <source>Trained the four siblings into %1; the main window compares them</source>
        <translation>四个同组模型已训练完成并保存在 %1；主窗口正在对比它们</translation>
    </message>
    <message>
        <source>Folder for the four siblings</source>
        <translation>四个同组模型的保存文件夹</translation>
    </message>
    <message>
        <source>CSV numbers (*.csv);;PNG picture (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>CSV 数值 (*.csv);;PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>%1% of the source tokens and %2% of the target tokens are unknown to the starting model (they all become &lt;unk&gt;): is this corpus for its task?</source>
        <translation>起始模型不认识 %1% 的源语言词元和 %2% 的目标语言词元（它们都会变成 &lt;unk&gt;）：这个语料是它的任务的吗？</translation>
    </message>
    <message>
        <source>%1; the model is in %2 with %3</source>
        <translation>%1；模型保存在 %2，其中是%3</translation>
    </message>
    <message>
        <source>the weights of update %1, the best validation loss (%2)</source>
        <translation>第 %1 次更新的权重，即验证损失最低的一次（%2）</translation>
    </message>
    <message>
        <source>the weights of update %1, the last with a finite loss</source>
        <translation>第 %1 次更新的权重，即损失有限的最后一次</translation>
    </message>
    <message>
        <source>%1 exists and is not empty: choose another model folder, or agree to replace it</source>
        <translation>%1 已存在且不为空：请选择另一个模型文件夹，或同意替换它</translation>
    </message>
    <message>
        <source>Replace the folder?</source>
        <translation>替换这个文件夹？</translation>
    </message>
    <message>
        <source>The model folder %1 exists and is not empty. Replace it with the model this training writes? It is replaced when the model is first written, whole.</source>
        <translation>模型文件夹 %1 已存在且不为空。要用这次训练写出的模型替换它吗？它会在模型第一次写入时被完整替换。</translation>
    </message>
    <message>
        <source>For the RNN kinds (bahdanau, luong): trains their four scoring functions side by side. A Transformer&apos;s attention, a Marian&apos;s too, has one scoring only (scaled dot product), so it has no such siblings</source>
        <translation>用于 RNN 类型（bahdanau、luong）：并排训练它们的四种打分函数。Transformer 的注意力（Marian 的也一样）只有一种打分函数（缩放点积），所以没有这样的同组模型</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::TransformerFields</name>
    <message>
        <source>Model size (d_model):</source>
        <translation>模型维度（d_model）：</translation>
    </message>
    <message>
        <source>Attention heads:</source>
        <translation>注意力头数：</translation>
    </message>
    <message>
        <source>Feed-forward size:</source>
        <translation>前馈层维度：</translation>
    </message>
    <message>
        <source>Layer norm:</source>
        <translation>层归一化：</translation>
    </message>
    <message>
        <source>Activation:</source>
        <translation>激活函数：</translation>
    </message>
    <message>
        <source>The width of every token&apos;s vector, embeddings included (even: positions pair sin and cos)</source>
        <translation>每个词元向量的宽度，词嵌入也是这个宽度（须为偶数：位置编码把 sin 和 cos 成对使用）</translation>
    </message>
    <message>
        <source>Each layer&apos;s attention is split into this many heads of d_model / heads each; it must divide d_model</source>
        <translation>每层的注意力分成这么多个头，每个头的维度为 d_model / 头数；它必须整除 d_model</translation>
    </message>
    <message>
        <source>The hidden width of each layer&apos;s feed-forward block (dim_feedforward)</source>
        <translation>每层前馈模块的隐藏层宽度（dim_feedforward）</translation>
    </message>
    <message>
        <source>The feed-forward block&apos;s activation</source>
        <translation>前馈模块的激活函数</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层数：</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
    <message>
        <source>decoder</source>
        <translation>解码器</translation>
    </message>
    <message>
        <source>How many layers the encoder and the decoder stack (num_encoder_layers, num_decoder_layers)</source>
        <translation>编码器和解码器各堆叠多少层（num_encoder_layers、num_decoder_layers）</translation>
    </message>
    <message>
        <source>post-LN</source>
        <translation>post-LN（后置归一化）</translation>
    </message>
    <message>
        <source>pre-LN</source>
        <translation>pre-LN（前置归一化）</translation>
    </message>
    <message>
        <source>LayerNorm after each block&apos;s residual sum (PyTorch&apos;s default)</source>
        <translation>在每个模块的残差相加之后做 LayerNorm（PyTorch 的默认）</translation>
    </message>
    <message>
        <source>LayerNorm before each block, inside the residual branch (trains more easily)</source>
        <translation>在每个模块之前、残差分支内部做 LayerNorm（更容易训练）</translation>
    </message>
    <message>
        <source>Where each layer normalizes (norm_first): post-LN after each block, pre-LN before it</source>
        <translation>每层在何处做归一化（norm_first）：post-LN 在每个模块之后，pre-LN 在之前</translation>
    </message>
    <message>
        <source>the model size (d_model) must be even: %1 is odd (the positions pair a sine and a cosine)</source>
        <translation>模型维度（d_model）必须是偶数：%1 是奇数（位置编码把正弦和余弦成对使用）</translation>
    </message>
    <message>
        <source>%1 heads do not divide the model size %2 (each head takes d_model / heads numbers)</source>
        <translation>%1 个头不能整除模型维度 %2（每个头分得 d_model / 头数 个数）</translation>
    </message>
    <message>
        <source>%1 is %2; it must be at least 1</source>
        <translation>%1 为 %2；它至少应为 1</translation>
    </message>
    <message>
        <source>these sizes need at least %1 GiB for the weights alone; the limit is %2 GiB</source>
        <translation>这些尺寸仅权重就至少需要 %1 GiB；上限是 %2 GiB</translation>
    </message>
    <message>
        <source>Cannot train this Transformer: %1</source>
        <translation>无法训练这个 Transformer：%1</translation>
    </message>
</context>
</TS>
